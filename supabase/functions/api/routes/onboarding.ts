// Onboarding and the profile (spec sections 3, 4, 5 and 7): the profile read, the saves with and
// without files, file deletion and completion. Files go to the `brand-assets` bucket under the
// caller's folder. This route is the only way a brand asset is written: it checks each file's
// bytes against its slot, then stores it and sets its path with the service role (subscribers
// may neither upload into brand-assets nor set the *_path columns themselves). Everything else
// runs with the caller's JWT, so RLS and column grants apply. A save either lands whole (files
// and fields) or leaves nothing behind.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  BRAND_ASSETS_BUCKET,
  brandAssetObjectName,
  brandAssetRules,
  brandAssetSlots,
  contentMatchesType,
  fileTypeProblem,
  isBrandAssetSlot,
  missingRequiredFields,
  onboardingFieldsSchema,
  profileTextFields,
  requiredOnboardingFields,
  VIDEO_MAX_BYTES,
  type BrandAssetSlot,
  type OnboardingFields,
  type ProfileRecord,
} from '../../_shared/domain/onboarding.ts';
import { settings } from '../../_shared/config.ts';
import type { Database } from '../../_shared/database.types.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { SIGNATURE_BYTES } from '../../_shared/domain/file-signatures.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { multipartParts } from '../../_shared/multipart.ts';
import { loadCallerAccount, requireCaller, type Caller } from '../../_shared/session.ts';
import { serviceClient, userClient } from '../../_shared/supabase-clients.ts';

type ProfileRow = Database['public']['Tables']['profiles']['Row'];
type ProfileUpdate = Database['public']['Tables']['profiles']['Update'];

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const pathColumn = (slot: BrandAssetSlot) => `${snake(slot)}_path` as keyof ProfileRow & keyof ProfileUpdate;

async function storedProfile(caller: Caller): Promise<ProfileRow> {
  const { data, error } = await userClient(caller.accessToken).from('profiles').select('*').eq('id', caller.userId).maybeSingle();
  if (error) throw databaseError(error, 'Could not read the profile');
  if (!data) throw new HttpError(401, 'Unauthorized');
  return data;
}

async function profileRecord(caller: Caller): Promise<ProfileRecord | null> {
  const { data, error } = await userClient(caller.accessToken).rpc('onboarding_profile');
  if (error) throw databaseError(error, 'Could not read the profile');
  return data as unknown as ProfileRecord | null;
}

// ------------------------------------------------------------------ storage

function storageUrl(objectName = ''): string {
  const base = `${settings().supabaseUrl}/storage/v1/object/${BRAND_ASSETS_BUCKET}`;
  return objectName ? `${base}/${objectName.split('/').map(encodeURIComponent).join('/')}` : base;
}

function storageHeaders(caller: Caller): Record<string, string> {
  return { authorization: `Bearer ${caller.accessToken}`, apikey: settings().anonKey };
}

/** Brand assets are written with the service role, once their bytes passed the slot's check. */
function serviceStorageHeaders(): Record<string, string> {
  const key = settings().serviceRoleKey;
  return { authorization: `Bearer ${key}`, apikey: key };
}

/** The Storage API's refusal of an upload as the answer this route gives. */
async function storageRefusal(res: Response, slot: BrandAssetSlot): Promise<HttpError> {
  const rule = brandAssetRules[slot];
  const text = await res.text();
  let body: { statusCode?: string; message?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported as it came
  }
  const status = body.statusCode ?? String(res.status);
  if (status === '413') return new HttpError(413, rule.sizeMessage);
  if (status === '415' || /mime/i.test(text)) return new HttpError(415, rule.typeMessage);
  // No active subscription, or the storage quota reached (the storage trigger's words).
  if (status === '403' && body.message) return new HttpError(403, body.message);
  return new HttpError(502, `Could not store ${slot}: ${text}`);
}

async function removeObjects(caller: Caller, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const res = await fetch(storageUrl(), {
    method: 'DELETE',
    headers: { ...storageHeaders(caller), 'content-type': 'application/json' },
    body: JSON.stringify({ prefixes: names }),
  });
  if (!res.ok) throw new HttpError(502, `Could not delete files: ${await res.text()}`);
  await res.body?.cancel();
}

/** Best effort: what could not be removed is logged (its path is no longer referenced). */
async function removeQuietly(caller: Caller, names: string[]): Promise<void> {
  try {
    await removeObjects(caller, names);
  } catch (error) {
    console.error('brand-assets cleanup failed', names, error);
  }
}

/**
 * Streams one file part into the caller's slot folder, checking its first bytes against the
 * slot's type and its size against the slot's limit on the way.
 */
async function uploadPart(caller: Caller, slot: BrandAssetSlot, filename: string, source: ReadableStream<Uint8Array>): Promise<string> {
  const rule = brandAssetRules[slot];
  const objectName = brandAssetObjectName(caller.userId, slot, filename, crypto.randomUUID().replace(/-/g, '').slice(0, 12));
  let refusal: HttpError | null = null;
  let received = 0;
  let head = new Uint8Array(0);
  // Pulled by hand, not piped, so a request body that breaks off (a truncated multipart body)
  // is known here as the client's fault (400), not taken for Storage failing.
  const reader = source.getReader();
  const refuse = (controller: ReadableStreamDefaultController<Uint8Array>, error: HttpError) => {
    refusal = error;
    controller.error(error);
    reader.cancel().catch(() => {});
  };
  const checked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        return refuse(controller, error instanceof HttpError ? error : new HttpError(400, `The ${slot} file part ended early`));
      }
      if (next.done) {
        if (head.byteLength < SIGNATURE_BYTES || !contentMatchesType(slot, head)) return refuse(controller, new HttpError(415, rule.typeMessage));
        return controller.close();
      }
      const chunk = next.value;
      received += chunk.byteLength;
      if (received > rule.maxBytes) return refuse(controller, new HttpError(413, rule.sizeMessage));
      if (head.byteLength < SIGNATURE_BYTES) {
        head = new Uint8Array([...head, ...chunk.subarray(0, SIGNATURE_BYTES - head.byteLength)]);
        if (head.byteLength >= SIGNATURE_BYTES && !contentMatchesType(slot, head)) return refuse(controller, new HttpError(415, rule.typeMessage));
      }
      controller.enqueue(chunk);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  let res: Response;
  try {
    res = await fetch(storageUrl(objectName), {
      method: 'POST',
      headers: { ...serviceStorageHeaders(), 'content-type': rule.mimeType, 'x-upsert': 'false' },
      body: checked,
    });
  } catch (error) {
    if (refusal) throw refusal;
    if (error instanceof HttpError) throw error;
    throw new HttpError(502, `Could not store ${slot}: ${(error as Error).message}`);
  }
  if (refusal) throw refusal;
  if (!res.ok) throw await storageRefusal(res, slot);
  await res.body?.cancel();
  return objectName;
}

// ------------------------------------------------------------------ saving

/** The row update for `fields`: every given text field ('' clears it) and postAutomatically. */
function fieldColumns(fields: OnboardingFields): ProfileUpdate {
  const update: Record<string, string | boolean | null> = {};
  for (const field of profileTextFields) {
    const value = fields[field];
    if (value !== undefined) update[snake(field)] = value === '' ? null : value;
  }
  if (fields.postAutomatically !== undefined) update.post_automatically = fields.postAutomatically;
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
async function saveProfile(caller: Caller, stored: ProfileRow, fields: OnboardingFields, uploads: Partial<Record<BrandAssetSlot, string>>) {
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
      // New paths only with the service role (subscribers cannot set them); the fields in the same
      // update are the validated ones above, for the caller's own row.
      const client = newFiles.length > 0 ? serviceClient() : userClient(caller.accessToken);
      const { error } = await client.from('profiles').update(update).eq('id', caller.userId);
      if (error) throw databaseError(error, 'Could not save the profile');
    }
  } catch (error) {
    await removeQuietly(caller, newFiles);
    throw error;
  }
  await removeQuietly(caller, replaced);
  return profileRecord(caller);
}

function parseFields(value: unknown): OnboardingFields {
  const result = z.safeParse(onboardingFieldsSchema, value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.');
    throw new HttpError(400, field && issue.code === 'unrecognized_keys' ? issue.message : field ? `${field}: ${issue.message}` : (issue?.message ?? 'Invalid fields'));
  }
  return result.data;
}

// ------------------------------------------------------------------ routes

export const onboardingRoutes = new Hono();

onboardingRoutes.get('/airtable/user-data', async (c) => {
  const caller = await requireCaller(c);
  return c.json(await profileRecord(caller));
});

onboardingRoutes.post('/onboarding/submit', async (c) => {
  const caller = await requireCaller(c);
  const body = await parseJsonBody(c.req.raw, z.object({ fields: z.unknown() }));
  if (body.fields === undefined) throw new HttpError(400, 'fields is required');
  const fields = parseFields(body.fields);
  return c.json(await saveProfile(caller, await storedProfile(caller), fields, {}));
});

onboardingRoutes.post('/onboarding/submit-with-files', async (c) => {
  const caller = await requireCaller(c);
  const uploads: Partial<Record<BrandAssetSlot, string>> = {};
  let fields: OnboardingFields | null = null;
  let refusal: unknown = null;
  try {
    for await (const part of multipartParts(c.req.raw, { maxFileBytes: VIDEO_MAX_BYTES + 1, maxFiles: brandAssetSlots.length, maxFields: 1, maxFieldBytes: 1_000_000 })) {
      if (part.kind === 'field') {
        if (refusal) continue;
        if (part.name !== 'fields') refusal = new HttpError(400, `Unexpected field part: ${part.name}`);
        else if (part.truncated) refusal = new HttpError(413, 'The fields part is too large');
        else {
          try {
            fields = parseFields(JSON.parse(part.value));
          } catch (error) {
            refusal = error instanceof HttpError ? error : new HttpError(400, 'The fields part must be JSON');
          }
        }
        continue;
      }
      // After a refusal the rest of the body is read and dropped, so the client gets the answer.
      if (refusal) {
        await part.discard();
        continue;
      }
      try {
        if (!isBrandAssetSlot(part.name)) throw new HttpError(400, `Unknown file field: ${part.name}`);
        if (uploads[part.name]) throw new HttpError(400, `Only one file for ${part.name}`);
        const typeProblem = fileTypeProblem(part.name, { name: part.filename, type: part.mimeType });
        if (typeProblem) throw new HttpError(415, typeProblem);
        uploads[part.name] = await uploadPart(caller, part.name, part.filename, part.stream);
      } catch (error) {
        refusal = error;
        await part.discard();
      }
    }
  } catch (error) {
    refusal ??= error;
  }
  const newFiles = Object.values(uploads).filter((path): path is string => Boolean(path));
  if (!refusal && !fields) refusal = new HttpError(400, 'The fields part is required');
  if (refusal) {
    await removeQuietly(caller, newFiles);
    throw refusal;
  }
  let stored: ProfileRow;
  try {
    stored = await storedProfile(caller);
  } catch (error) {
    await removeQuietly(caller, newFiles);
    throw error;
  }
  return c.json(await saveProfile(caller, stored, fields!, uploads));
});

onboardingRoutes.post('/onboarding/delete-attachment', async (c) => {
  const caller = await requireCaller(c);
  const { fieldName } = await parseJsonBody(c.req.raw, z.object({ fieldName: z.string().max(100) }));
  if (!isBrandAssetSlot(fieldName)) throw new HttpError(400, `Unknown file field: ${fieldName}`);
  const stored = await storedProfile(caller);
  const path = stored[pathColumn(fieldName)] as string | null;
  if (!path) throw new HttpError(404, `No ${fieldName} file to delete`);
  // The file goes first: a path left pointing at nothing reads as no file, never as an orphan.
  await removeObjects(caller, [path]);
  // Paths are the service's to write (see saveProfile); this clears the caller's own.
  const { error } = await serviceClient()
    .from('profiles')
    .update({ [pathColumn(fieldName)]: null } as ProfileUpdate)
    .eq('id', caller.userId);
  if (error) throw databaseError(error, 'Could not update the profile');
  return c.json(await profileRecord(caller));
});

const completeSchema = z.object({
  airtableRecordId: z.string().max(200).nullish(),
  data: z.object({ userId: z.string().max(200).nullish(), completedAt: z.string().max(100).nullish() }).nullish(),
});

const requiredMessageByField = new Map(requiredOnboardingFields.map((item) => [item.field as string, item.message]));

onboardingRoutes.post('/onboarding/complete', async (c) => {
  const caller = await requireCaller(c);
  const body = await parseJsonBody(c.req.raw, completeSchema);
  if (body.data?.userId && body.data.userId !== caller.userId) throw new HttpError(403, 'You can only complete your own onboarding');
  const { error } = await userClient(caller.accessToken).rpc('complete_onboarding');
  if (error) {
    if (error.code === '22023') {
      const missing = (error.details ?? '').split(', ').filter(Boolean);
      throw new HttpError(400, missing.map((field) => requiredMessageByField.get(field) ?? field).join(', ') || error.message);
    }
    throw databaseError(error, 'Could not complete onboarding');
  }
  return c.json(await loadCallerAccount(caller));
});
