// Onboarding and the profile (spec sections 3, 4, 5 and 7): the profile read, the saves with and
// without files, file deletion and completion. Files go to the `brand-assets` bucket under the
// caller's folder. This route is the only way a brand asset is written: it checks each file's
// bytes against its slot, then stores it and sets its path as the service (storage-js with the
// service role, then db(): subscribers may neither upload into brand-assets nor set the *_path
// columns themselves). Everything else runs with the caller's JWT, so RLS and column grants
// apply. A save either lands whole (files and fields) or leaves nothing behind.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  brandAssetSlots,
  fileTypeProblem,
  isBrandAssetSlot,
  VIDEO_MAX_BYTES,
  type BrandAssetSlot,
  type OnboardingFields,
} from '../../_shared/domain/onboarding.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { multipartParts } from '../../_shared/multipart.ts';
import { loadCallerAccount, requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';
import { removeObjects, removeQuietly } from '../onboarding/brand-asset-storage.ts';
import { uploadPart } from '../onboarding/brand-asset-upload.ts';
import { parseFields, pathColumn, profileRecord, saveProfile, storedProfile, updateWithPaths, type ProfileRow } from '../onboarding/profile-store.ts';

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
  await updateWithPaths(caller, { [pathColumn(fieldName)]: null }, 'Could not update the profile');
  return c.json(await profileRecord(caller));
});

const completeSchema = z.object({
  airtableRecordId: z.string().max(200).nullish(),
  data: z.object({ userId: z.string().max(200).nullish(), completedAt: z.string().max(100).nullish() }).nullish(),
});

onboardingRoutes.post('/onboarding/complete', async (c) => {
  const caller = await requireCaller(c);
  const body = await parseJsonBody(c.req.raw, completeSchema);
  if (body.data?.userId && body.data.userId !== caller.userId) throw new HttpError(403, 'You can only complete your own onboarding');
  const { error } = await userClient(caller.accessToken).rpc('complete_onboarding');
  // A missing required field comes back as its spec message (the mapper reads the field list).
  if (error) throw databaseError(error, 'Could not complete onboarding');
  return c.json(await loadCallerAccount(caller));
});
