// /object routes: upload, download, info, list, move, copy, remove. Every query runs under
// the caller's role and claims, so storage.objects RLS decides what each caller can see and do.
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STORAGE_MAX_OBJECTS_PER_REQUEST } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import type { StorageContext } from './context.ts';
import type { ObjectRow } from './db.ts';
import { sendObject } from './download.ts';
import { errors } from './errors.ts';
import { sendJson } from '../lib/http.ts';
import { checkKey, readJson } from './http.ts';
import type { Caller } from './jwt.ts';
import { checkMimeType, sizeLimit } from './limits.ts';
import { bucketFor, commitObject, uploadFromRequest } from './upload.ts';

function upsertHeader(req: IncomingMessage): boolean {
  return String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
}

export async function uploadObject(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string, name: string): Promise<void> {
  // POST creates (x-upsert decides about an existing object); PUT updates, as Supabase.
  const upsert = req.method === 'PUT' ? true : upsertHeader(req);
  const { id } = await uploadFromRequest(ctx, req, { bucketId, name, upsert, ownerSub: caller.sub, caller });
  sendJson(res, 200, { Id: id, Key: `${bucketId}/${name}` });
}

export async function findObject(ctx: StorageContext, caller: Caller | null, bucketId: string, name: string): Promise<ObjectRow> {
  const run = (db: Parameters<Parameters<typeof ctx.db.admin>[0]>[0]) =>
    db.query<ObjectRow>('select * from storage.objects where bucket_id = $1 and name = $2', [bucketId, name]);
  const { rows } = caller ? await ctx.db.as(caller, run) : await ctx.db.admin(run);
  if (!rows[0]) throw errors.noSuchKey();
  return rows[0];
}

function downloadParam(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://x').searchParams.get('download');
}

export async function downloadObject(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string, name: string): Promise<void> {
  const row = await findObject(ctx, caller, bucketId, name);
  await sendObject(ctx, req, res, row, downloadParam(req));
}

export async function downloadPublic(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, bucketId: string, name: string): Promise<void> {
  const bucket = await ctx.db.findBucket(bucketId);
  if (!bucket || !bucket.public) throw errors.noSuchBucket();
  const row = await findObject(ctx, null, bucketId, name);
  await sendObject(ctx, req, res, row, downloadParam(req));
}

export async function objectInfo(ctx: StorageContext, res: ServerResponse, caller: Caller | null, bucketId: string, name: string): Promise<void> {
  if (!caller) {
    const bucket = await ctx.db.findBucket(bucketId);
    if (!bucket || !bucket.public) throw errors.noSuchBucket();
  }
  const row = await findObject(ctx, caller, bucketId, name);
  const meta = row.metadata;
  sendJson(res, 200, {
    id: row.id,
    version: row.version,
    name: row.name,
    bucket_id: row.bucket_id,
    size: meta?.size ?? null,
    content_type: meta?.mimetype ?? null,
    cache_control: meta?.cacheControl ?? null,
    etag: meta?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  });
}

const sortColumns = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at']);

interface ListBody {
  prefix?: string;
  search?: string;
  limit?: number;
  offset?: number;
  sortBy?: { column?: string; order?: string };
}

/** One level of a "folder": files as rows, deeper paths as folders with id null. */
export async function listObjects(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string): Promise<void> {
  const body = await readJson<ListBody>(req);
  let prefix = typeof body.prefix === 'string' ? body.prefix.replace(/^\/+/, '') : '';
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 10_000);
  const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
  const column = sortColumns.has(body.sortBy?.column ?? '') ? body.sortBy!.column! : 'name';
  const order = String(body.sortBy?.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof body.search === 'string' ? body.search : '';
  const likePrefix = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const likeSearch = search.replace(/[\\%_]/g, (c) => `\\${c}`);
  const orderBy = column === 'name' ? `name collate "C" ${order}` : `${column} ${order} nulls last, name collate "C" asc`;
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query(
      `with level as (
         select substr(o.name, $3::int + 1) as rest, o.*
         from storage.objects o
         where o.bucket_id = $1 and o.name like $2 || '%' escape '\\'
       ), items as (
         select split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
         from level where position('/' in rest) > 0
         group by split_part(rest, '/', 1)
         union all
         select rest, id, updated_at, created_at, last_accessed_at, metadata
         from level where position('/' in rest) = 0
       )
       select * from items where name <> '' and name ilike $4 || '%' escape '\\'
       order by ${orderBy} limit $5 offset $6`,
      [bucketId, likePrefix, prefix.length, likeSearch, limit, offset],
    ),
  );
  sendJson(res, 200, rows);
}

interface ListV2Body {
  prefix?: unknown;
  limit?: unknown;
  cursor?: unknown;
  with_delimiter?: unknown;
  sortBy?: { column?: unknown; order?: unknown };
}

interface ListV2Row {
  key?: string;
  id: string | null;
  name: string;
  metadata?: unknown;
  updated_at?: Date | null;
  created_at?: Date | null;
  last_accessed_at?: Date | null;
}

/** Storage's continuation token: base64 of "k:value" lines (l = start after this name). */
function encodeCursor(startAfter: string): string {
  return Buffer.from(`l:${startAfter}`).toString('base64');
}

function decodeCursor(cursor: string): string {
  const line = Buffer.from(cursor, 'base64').toString().split('\n').find((part) => part.startsWith('l:'));
  if (line === undefined) throw errors.invalidRequest('Invalid continuation token');
  return line.slice(2);
}

/**
 * POST /object/list-v2/{bucket}: objects under a prefix by name (or by a date column without
 * a delimiter), paged by an opaque cursor; with `with_delimiter` the deeper paths come back
 * once each as folders ("a/b/").
 */
export async function listObjectsV2(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string): Promise<void> {
  const body = await readJson<ListV2Body>(req);
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const limit = Math.min(Number.isInteger(body.limit) && (body.limit as number) >= 1 ? (body.limit as number) : 1000, 1000);
  const delimited = body.with_delimiter === true;
  const startAfter = typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : null;
  const column = !delimited && (body.sortBy?.column === 'created_at' || body.sortBy?.column === 'updated_at') ? body.sortBy.column : null;
  const order = body.sortBy?.order === 'desc' ? 'desc' : 'asc';
  const likePrefix = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query<ListV2Row>(
      `select id, name, metadata, updated_at, created_at, last_accessed_at
       from storage.objects where bucket_id = $1 and name like $2 || '%' escape '\\'
       order by ${column ? `${column} ${order}, ` : ''}name collate "C" ${order}`,
      [bucketId, likePrefix],
    ),
  );
  // With the delimiter, objects also carry `key`: their path segment at the prefix's level.
  const level = prefix ? prefix.split('/').length : 1;
  let entries: ListV2Row[] = [];
  for (const row of rows) {
    const cut = delimited ? row.name.indexOf('/', prefix.length) : -1;
    if (cut >= 0) {
      const folder = row.name.slice(0, cut + 1);
      if (entries.at(-1)?.name !== folder) entries.push({ id: null, name: folder });
    } else {
      entries.push(delimited ? { key: row.name.split('/')[level - 1] ?? '', ...row } : row);
    }
  }
  if (startAfter !== null) {
    const index = entries.findIndex((entry) => entry.name === startAfter);
    entries = index >= 0 ? entries.slice(index + 1) : entries.filter((entry) => (order === 'asc' ? entry.name > startAfter : entry.name < startAfter));
  }
  const page = entries.slice(0, limit);
  const hasNext = entries.length > limit;
  const last = page.at(-1);
  const answer: Record<string, unknown> = {
    hasNext,
    folders: page.filter((entry) => entry.id === null),
    objects: page.filter((entry) => entry.id !== null),
  };
  if (hasNext && last) {
    answer.nextCursor = encodeCursor(last.name);
    answer.nextCursorKey = last.name;
  }
  sendJson(res, 200, answer);
}

/** DELETE /object/{bucket} {prefixes}: deletes what RLS lets the caller delete, returns those rows. */
export async function removeObjects(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string): Promise<void> {
  const body = await readJson<{ prefixes?: unknown }>(req);
  if (!Array.isArray(body.prefixes) || body.prefixes.some((p) => typeof p !== 'string')) {
    throw errors.invalidRequest('body must have required property \'prefixes\'');
  }
  if (body.prefixes.length > STORAGE_MAX_OBJECTS_PER_REQUEST) {
    throw errors.invalidRequest(`body/prefixes must NOT have more than ${STORAGE_MAX_OBJECTS_PER_REQUEST} items`);
  }
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query<ObjectRow>('delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *', [bucketId, body.prefixes]),
  );
  await ctx.files.removeMany(rows.map((row) => row.version));
  sendJson(res, 200, rows);
}

export async function removeObject(ctx: StorageContext, res: ServerResponse, caller: Caller, bucketId: string, name: string): Promise<void> {
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query<ObjectRow>('delete from storage.objects where bucket_id = $1 and name = $2 returning *', [bucketId, name]),
  );
  if (!rows[0]) throw errors.noSuchKey();
  await ctx.files.remove(rows[0].version);
  sendJson(res, 200, { message: 'Successfully deleted' });
}

interface MoveBody {
  bucketId?: string;
  sourceKey?: string;
  destinationKey?: string;
  destinationBucket?: string;
}

function moveArgs(body: MoveBody): { bucketId: string; sourceKey: string; destinationKey: string; destinationBucket: string } {
  const { bucketId, sourceKey, destinationKey } = body;
  if (typeof bucketId !== 'string' || typeof sourceKey !== 'string' || typeof destinationKey !== 'string') {
    throw errors.invalidRequest("body must have required properties 'bucketId', 'sourceKey', 'destinationKey'");
  }
  checkKey(destinationKey);
  return { bucketId, sourceKey, destinationKey, destinationBucket: body.destinationBucket || bucketId };
}

export async function moveObject(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const args = moveArgs(await readJson<MoveBody>(req));
  if (args.destinationBucket !== args.bucketId) await bucketFor(ctx, args.destinationBucket);
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query(
      `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
       where bucket_id = $1 and name = $2 returning id`,
      [args.bucketId, args.sourceKey, args.destinationBucket, args.destinationKey],
    ),
  );
  if (!rows[0]) throw errors.noSuchKey();
  sendJson(res, 200, { message: 'Successfully moved' });
}

export async function copyObject(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const args = moveArgs(await readJson<MoveBody>(req));
  const source = await findObject(ctx, caller, args.bucketId, args.sourceKey);
  if (!source.version) throw errors.noSuchKey();
  const bucket = await bucketFor(ctx, args.destinationBucket);
  const meta = source.metadata;
  const size = meta?.size ?? (await fs.stat(ctx.files.pathOf(source.version)).catch(() => ({ size: 0 }))).size;
  if (size > sizeLimit(ctx.globalLimit, bucket)) throw errors.entityTooLarge();
  const mimetype = meta?.mimetype ?? 'application/octet-stream';
  checkMimeType(bucket, mimetype);
  const temp = ctx.files.newTempPath();
  try {
    await fs.copyFile(ctx.files.pathOf(source.version), temp, fs.constants.COPYFILE_FICLONE);
  } catch {
    throw errors.noSuchKey();
  }
  const target = { bucketId: args.destinationBucket, name: args.destinationKey, upsert: upsertHeader(req), ownerSub: caller.sub, caller };
  const { id } = await commitObject(ctx, target, temp, { size, eTag: meta?.eTag ?? `"${source.version}"` }, {
    mimetype,
    cacheControl: meta?.cacheControl ?? 'no-cache',
    userMetadata: source.user_metadata,
  });
  sendJson(res, 200, { Id: id, Key: `${args.destinationBucket}/${args.destinationKey}` });
}
