// Downloads from Supabase Storage with the service role key, streamed straight to a file: a
// 3 GiB episode never sits in memory.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { MediaError } from './media/ffmpeg.ts';

interface StorageAccess {
  supabaseUrl: string;
  serviceRoleKey: string;
}

/** Copies object `objectPath` of `bucket` to `file`; a missing object is a permanent error. */
export async function downloadObject(
  access: StorageAccess,
  bucket: string,
  objectPath: string,
  file: string,
  signal?: AbortSignal,
): Promise<void> {
  const encoded = objectPath.split('/').map(encodeURIComponent).join('/');
  const res = await fetch(`${access.supabaseUrl}/storage/v1/object/authenticated/${bucket}/${encoded}`, {
    headers: { authorization: `Bearer ${access.serviceRoleKey}`, apikey: access.serviceRoleKey },
    signal,
  });
  if (res.status === 404 || res.status === 400) {
    await res.body?.cancel();
    throw new MediaError(`${bucket}/${objectPath} is no longer in storage`, true);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`Storage answered ${res.status} for ${bucket}/${objectPath}`);
  }
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file), { signal });
}
