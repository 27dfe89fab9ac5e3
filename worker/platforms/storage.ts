// Supabase Storage with the service role key, streamed to and from files: a 3 GiB episode never
// sits in memory. Downloads of the subscriber's files; uploads and deletes of the pieces of a
// submission's work (worker/pieces.ts).
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { PROVIDER_ANSWER_MAX_BYTES, readCappedJson, readCappedText } from '../../supabase/functions/_shared/domain-server/capped-response.ts';
import { STORAGE_MAX_OBJECTS_PER_REQUEST } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileBody } from './file-body.ts';
import { ProcessingFailure } from '../failure.ts';

interface StorageAccess {
  supabaseUrl: string;
  serviceRoleKey: string;
}

/** The Storage API's URL of an object (`kind`: 'authenticated/', 'sign/' or none). */
const objectUrl = (access: StorageAccess, bucket: string, objectPath: string, kind = '') =>
  `${access.supabaseUrl}/storage/v1/object/${kind}${bucket}/${objectPath.split('/').map(encodeURIComponent).join('/')}`;
const headers = (access: StorageAccess) => ({ authorization: `Bearer ${access.serviceRoleKey}`, apikey: access.serviceRoleKey });

/** A refusal from Storage, with the start of what it said (read up to the cap, as every answer is). */
async function refusal(res: Response, what: string): Promise<Error> {
  const text = await readCappedText(res, PROVIDER_ANSWER_MAX_BYTES).catch(() => '(answer not read)');
  return new Error(`Storage answered ${res.status} ${what}: ${text.slice(0, 200)}`);
}

/** Copies object `objectPath` of `bucket` to `file`; a missing object is a permanent error. */
export async function downloadObject(
  access: StorageAccess,
  bucket: string,
  objectPath: string,
  file: string,
  signal?: AbortSignal,
): Promise<void> {
  const res = await fetch(objectUrl(access, bucket, objectPath, 'authenticated/'), { headers: headers(access), signal });
  if (res.status === 404 || res.status === 400) {
    await res.body?.cancel();
    throw ProcessingFailure.unusableInput(`${bucket}/${objectPath} is no longer in storage`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`Storage answered ${res.status} for ${bucket}/${objectPath}`);
  }
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file), { signal });
}

/** Stores `file` as `objectPath` of `bucket`, replacing what an earlier attempt left there. */
export async function uploadObject(
  access: StorageAccess,
  bucket: string,
  objectPath: string,
  file: string,
  contentType: string,
  signal?: AbortSignal,
): Promise<void> {
  const { size } = await stat(file);
  const res = await fetch(objectUrl(access, bucket, objectPath), {
    method: 'POST',
    headers: { ...headers(access), 'content-type': contentType, 'content-length': String(size), 'x-upsert': 'true' },
    body: fileBody(file),
    duplex: 'half',
    signal,
  } as RequestInit);
  if (!res.ok) throw await refusal(res, `storing ${bucket}/${objectPath}`);
  await res.body?.cancel();
}

/** `objectPaths` in as few requests as Storage takes them (one after another), the answers in order. */
async function perRequest<R>(objectPaths: string[], send: (slice: string[]) => Promise<R[]>): Promise<R[]> {
  const answers: R[] = [];
  for (let from = 0; from < objectPaths.length; from += STORAGE_MAX_OBJECTS_PER_REQUEST) {
    answers.push(...(await send(objectPaths.slice(from, from + STORAGE_MAX_OBJECTS_PER_REQUEST))));
  }
  return answers;
}

/** Deletes the named objects of `bucket` (those already gone are no error). */
export async function deleteObjects(access: StorageAccess, bucket: string, objectPaths: string[], signal?: AbortSignal): Promise<void> {
  await perRequest(objectPaths, async (slice) => {
    const res = await fetch(`${access.supabaseUrl}/storage/v1/object/${bucket}`, {
      method: 'DELETE',
      headers: { ...headers(access), 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes: slice }),
      signal,
    });
    if (!res.ok) throw await refusal(res, `deleting from ${bucket}`);
    await res.body?.cancel();
    return [];
  });
}

/** A stored object copied to another name of the same bucket (Storage copies it; nothing passes through here). */
export async function copyObject(access: StorageAccess, bucket: string, from: string, to: string, signal?: AbortSignal): Promise<void> {
  const res = await fetch(`${access.supabaseUrl}/storage/v1/object/copy`, {
    method: 'POST',
    headers: { ...headers(access), 'content-type': 'application/json', 'x-upsert': 'true' },
    body: JSON.stringify({ bucketId: bucket, sourceKey: from, destinationKey: to }),
    signal,
  });
  if (!res.ok) throw await refusal(res, `copying ${bucket}/${from}`);
  await res.body?.cancel();
}

/**
 * URLs that read the named objects of `bucket` for `expiresIn` seconds with no other credential,
 * and answer HTTP range requests (as Supabase Storage's signed URLs do): a piece's ffmpeg reads
 * only the bytes of its part of the episode instead of downloading all of it. One request signs
 * up to STORAGE_MAX_OBJECTS_PER_REQUEST of them (a plan names one a minute of episode and a few
 * more); a missing object is a permanent error.
 */
export async function signedObjectUrls(access: StorageAccess, bucket: string, objectPaths: string[], expiresIn: number, signal?: AbortSignal): Promise<string[]> {
  return perRequest(objectPaths, async (slice) => {
    const res = await fetch(`${access.supabaseUrl}/storage/v1/object/sign/${bucket}`, {
      method: 'POST',
      headers: { ...headers(access), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: Math.ceil(expiresIn), paths: slice }),
      signal,
    });
    if (!res.ok) throw await refusal(res, `signing in ${bucket}`);
    const signed = (await readCappedJson(res, PROVIDER_ANSWER_MAX_BYTES)) as { error: string | null; path: string; signedURL: string | null }[];
    return slice.map((objectPath, i) => {
      const answer = Array.isArray(signed) ? signed[i] : undefined;
      if (answer?.path !== objectPath) throw new Error(`Storage answered the signing in ${bucket} with other paths than asked`);
      if (answer.error || !answer.signedURL) throw ProcessingFailure.unusableInput(`${bucket}/${objectPath} is no longer in storage`);
      // The token from the answer, on the object's path as this module encodes it (the answer's
      // path is not encoded: a name with a space would break the URL ffmpeg requests).
      const token = new URL(answer.signedURL, 'http://x').searchParams.get('token');
      if (!token) throw new Error(`Storage signed ${bucket}/${objectPath} without a token`);
      return `${objectUrl(access, bucket, objectPath, 'sign/')}?token=${encodeURIComponent(token)}`;
    });
  });
}
