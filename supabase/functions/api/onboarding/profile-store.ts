// Reading and saving the caller's profile row: fields, brand-asset paths and the first-time rules.
import { z } from 'zod';
import {
  brandAssetSlots,
  missingRequiredFields,
  onboardingFieldsSchema,
  profileTextFields,
  type BrandAssetSlot,
  type OnboardingFields,
  type ProfileRecord,
} from '../../_shared/domain/onboarding.ts';
import type { Database } from '../../_shared/database.types.ts';
import { databaseError, isUnstorableText, unstorableTextMessage, type DatabaseError } from '../../_shared/database-errors.ts';
import { db } from '../../_shared/db.ts';
import { HttpError } from '../../_shared/http-error.ts';
import type { Caller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';
import { removeQuietly } from './brand-asset-storage.ts';

export type ProfileRow = Database['public']['Tables']['profiles']['Row'];
export type ProfileUpdate = Database['public']['Tables']['profiles']['Update'];

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
export const pathColumn = (slot: BrandAssetSlot) => `${snake(slot)}_path` as keyof ProfileRow & keyof ProfileUpdate;

export async function storedProfile(caller: Caller): Promise<ProfileRow> {
  const { data, error } = await userClient(caller.accessToken).from('profiles').select('*').eq('id', caller.userId).maybeSingle();
  if (error) throw databaseError(error, 'Could not read the profile');
  if (!data) throw new HttpError(401, 'Unauthorized');
  return data;
}

export async function profileRecord(caller: Caller): Promise<ProfileRecord | null> {
  const { data, error } = await userClient(caller.accessToken).rpc('onboarding_profile');
  if (error) throw databaseError(error, 'Could not read the profile');
  return data as unknown as ProfileRecord | null;
}

/**
 * Updates the caller's row where it sets brand asset paths, which subscribers may not set: as the
 * service, through the functions' own connection. The rest of the update is the validated fields.
 */
export async function updateWithPaths(caller: Caller, update: ProfileUpdate, action: string): Promise<void> {
  const values = update as Record<string, string | boolean | null>;
  // Postgres refuses a NUL itself; a lone surrogate would reach it as U+FFFD, so it is refused
  // here as PostgREST refuses it for the caller's own updates.
  if (Object.values(values).some((value) => typeof value === 'string' && isUnstorableText(value))) {
    throw new HttpError(400, `${action}: ${unstorableTextMessage}`);
  }
  try {
    await db()`update public.profiles set ${db()(values)} where id = ${caller.userId}`;
  } catch (error) {
    throw databaseError(error as DatabaseError, action);
  }
}

/** The row update for `fields`: every given text field ('' clears it) and the Post Settings. */
function fieldColumns(fields: OnboardingFields): ProfileUpdate {
  const update: Record<string, string | number | boolean | null> = {};
  for (const field of profileTextFields) {
    const value = fields[field];
    if (value !== undefined) update[snake(field)] = value === '' ? null : value;
  }
  if (fields.postAutomatically !== undefined) update.post_automatically = fields.postAutomatically;
  if (fields.reviewWindow !== undefined) update.review_window = fields.reviewWindow;
  if (fields.postingHour !== undefined) update.posting_hour = fields.postingHour;
  return update as ProfileUpdate;
}

function requireFirstTimeFields(fields: OnboardingFields, stored: ProfileRow, filesPresent: Partial<Record<BrandAssetSlot, boolean>>): void {
  if (!fields.isFirstTimeOnboarding) return;
  const values = Object.fromEntries(
    profileTextFields.map((field) => [field, fields[field] !== undefined ? fields[field] : (stored[snake(field) as keyof ProfileRow] as string | null)]),
  );
  const missing = missingRequiredFields('setup', values, filesPresent);
  if (missing.length > 0) throw new HttpError(400, missing.map((item) => item.message).join(', '));
}

/**
 * Writes the fields and the new file paths in one update. On failure the new files are removed;
 * on success the files they replace are.
 */
export async function saveProfile(caller: Caller, stored: ProfileRow, fields: OnboardingFields, uploads: Partial<Record<BrandAssetSlot, string>>) {
  const update: ProfileUpdate = fieldColumns(fields);
  const replaced: string[] = [];
  for (const slot of brandAssetSlots) {
    const path = uploads[slot];
    if (!path) continue;
    (update as Record<string, string>)[pathColumn(slot)] = path;
    const old = stored[pathColumn(slot)] as string | null;
    if (old && old !== path) replaced.push(old);
  }
  const newFiles = Object.values(uploads).filter((path): path is string => Boolean(path));
  try {
    requireFirstTimeFields(fields, stored, Object.fromEntries(brandAssetSlots.map((slot) => [slot, Boolean(uploads[slot] ?? stored[pathColumn(slot)])])));
    if (Object.keys(update).length > 0) {
      if (newFiles.length > 0) await updateWithPaths(caller, update, 'Could not save the profile');
      else {
        const { error } = await userClient(caller.accessToken).from('profiles').update(update).eq('id', caller.userId);
        if (error) throw databaseError(error, 'Could not save the profile');
      }
    }
  } catch (error) {
    await removeQuietly(caller, newFiles);
    throw error;
  }
  await removeQuietly(caller, replaced);
  return profileRecord(caller);
}

export function parseFields(value: unknown): OnboardingFields {
  const result = z.safeParse(onboardingFieldsSchema, value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.');
    throw new HttpError(400, field && issue.code === 'unrecognized_keys' ? issue.message : field ? `${field}: ${issue.message}` : (issue?.message ?? 'Invalid fields'));
  }
  return result.data;
}
