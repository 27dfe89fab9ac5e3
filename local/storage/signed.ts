// Signed URLs: JWTs `{url: "bucket/path", scope, iat, exp}` for one object and one operation.
// Creating one needs the caller to see (download) or be allowed to insert (upload) the object;
// using one needs no other credential.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIGNED_URL_MAX_SECONDS, STORAGE_MAX_OBJECTS_PER_REQUEST } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import type { StorageContext } from './context.ts';
import { sendObject } from './download.ts';
import { errors } from './errors.ts';
import { sendJson } from '../lib/http.ts';
import { readJson } from './http.ts';
import type { Caller } from './jwt.ts';
import { findObject } from './objects.ts';
import { bucketFor, checkCanUpload, uploadFromRequest } from './upload.ts';

const uploadUrlLifetime = 2 * 60 * 60; // seconds, as Supabase

/**
 * A download URL's lifetime. Hosted Storage takes any; this project's rule caps it (the code
 * that signs URLs keeps to the same cap), so a URL cannot outlive access by years.
 */
function expiresIn(value: unknown): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1) throw errors.invalidRequest("body must have required property 'expiresIn'");
  if (seconds > SIGNED_URL_MAX_SECONDS) throw errors.invalidRequest(`expiresIn must be at most ${SIGNED_URL_MAX_SECONDS} seconds`);
  return seconds;
}

function tokenOf(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://x').searchParams.get('token');
}

export async function signDownload(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string, name: string): Promise<void> {
  const body = await readJson<{ expiresIn?: unknown }>(req);
  const seconds = expiresIn(body.expiresIn);
  await findObject(ctx, caller, bucketId, name);
  const token = await ctx.tokens.signObjectUrl(`${bucketId}/${name}`, 'download', seconds);
  sendJson(res, 200, { signedURL: `/object/sign/${bucketId}/${name}?token=${token}` });
}

export async function signDownloads(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string): Promise<void> {
  const body = await readJson<{ expiresIn?: unknown; paths?: unknown }>(req);
  const seconds = expiresIn(body.expiresIn);
  if (!Array.isArray(body.paths) || body.paths.some((p) => typeof p !== 'string')) {
    throw errors.invalidRequest("body must have required property 'paths'");
  }
  const paths = body.paths as string[];
  if (paths.length < 1) throw errors.invalidRequest('body/paths must NOT have fewer than 1 items');
  if (paths.length > STORAGE_MAX_OBJECTS_PER_REQUEST) {
    throw errors.invalidRequest(`body/paths must NOT have more than ${STORAGE_MAX_OBJECTS_PER_REQUEST} items`);
  }
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2::text[])', [bucketId, paths]),
  );
  const visible = new Set(rows.map((row) => row.name));
  const result = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) {
        return { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null };
      }
      const token = await ctx.tokens.signObjectUrl(`${bucketId}/${path}`, 'download', seconds);
      return { error: null, path, signedURL: `/object/sign/${bucketId}/${path}?token=${token}` };
    }),
  );
  sendJson(res, 200, result);
}

export async function downloadSigned(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, bucketId: string, name: string): Promise<void> {
  await ctx.tokens.verifyObjectUrl(tokenOf(req), `${bucketId}/${name}`, 'download');
  const row = await findObject(ctx, null, bucketId, name);
  await sendObject(ctx, req, res, row, new URL(req.url ?? '/', 'http://x').searchParams.get('download'));
}

export async function signUpload(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string, name: string): Promise<void> {
  const upsert = String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
  await bucketFor(ctx, bucketId);
  await checkCanUpload(ctx, { bucketId, name, upsert, ownerSub: caller.sub, caller });
  const token = await ctx.tokens.signObjectUrl(`${bucketId}/${name}`, 'upload', uploadUrlLifetime, { owner: caller.sub ?? undefined, upsert });
  sendJson(res, 200, { url: `/object/upload/sign/${bucketId}/${name}?token=${token}`, token });
}

export async function uploadSigned(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, bucketId: string, name: string): Promise<void> {
  const payload = await ctx.tokens.verifyObjectUrl(tokenOf(req), `${bucketId}/${name}`, 'upload');
  const ownerSub = typeof payload.owner === 'string' ? payload.owner : null;
  const { id } = await uploadFromRequest(ctx, req, { bucketId, name, upsert: payload.upsert === true, ownerSub, caller: null });
  sendJson(res, 200, { Id: id, Key: `${bucketId}/${name}` });
}
