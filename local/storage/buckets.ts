// /bucket routes, run under the caller's role (storage.buckets has RLS: service_role bypasses it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StorageContext } from './context.ts';
import { ownerColumns, type BucketRow } from './db.ts';
import { errors, StorageError } from './errors.ts';
import { sendJson } from '../lib/http.ts';
import { checkBucketName, readJson } from './http.ts';
import type { Caller } from './jwt.ts';
import { parseBucketLimit } from './limits.ts';

/** A bucket as Storage's GET /bucket/{id} selects it; the list adds `type`. */
function render(row: BucketRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner ?? '',
    public: row.public,
    file_size_limit: row.file_size_limit,
    allowed_mime_types: row.allowed_mime_types,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function renderListed(row: BucketRow): Record<string, unknown> {
  return { ...render(row), type: 'STANDARD' };
}

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

function mimeTypes(value: unknown): string[] | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw errors.invalidRequest('allowed_mime_types must be an array of strings');
  }
  return value.length ? (value as string[]) : null;
}

const bucketSorts = new Set(['id', 'name', 'created_at', 'updated_at']);

export async function listBuckets(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const params = new URL(req.url ?? '/', 'http://x').searchParams;
  const column = bucketSorts.has(params.get('sortColumn') ?? '') ? params.get('sortColumn')! : 'name';
  const order = params.get('sortOrder') === 'desc' ? 'desc' : 'asc';
  const limit = params.has('limit') ? Math.max(Number(params.get('limit')) || 0, 0) : null;
  const offset = Math.max(Number(params.get('offset') ?? 0) || 0, 0);
  const search = params.get('search') ?? '';
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query<BucketRow>(
      `select * from storage.buckets where name ilike '%' || $1 || '%' order by ${column} ${order} limit $2 offset $3`,
      [search.replace(/[\\%_]/g, (c) => `\\${c}`), limit, offset],
    ),
  );
  sendJson(res, 200, rows.map(renderListed));
}

async function getVisibleBucket(ctx: StorageContext, caller: Caller, id: string): Promise<BucketRow> {
  const { rows } = await ctx.db.as(caller, (db) => db.query<BucketRow>('select * from storage.buckets where id = $1', [id]));
  if (!rows[0]) throw errors.noSuchBucket();
  return rows[0];
}

export async function getBucket(ctx: StorageContext, res: ServerResponse, caller: Caller, id: string): Promise<void> {
  sendJson(res, 200, render(await getVisibleBucket(ctx, caller, id)));
}

export async function createBucket(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const body = await readJson<BucketBody>(req);
  const name = body.name ?? body.id;
  checkBucketName(name);
  const id = typeof body.id === 'string' && body.id ? body.id : name;
  checkBucketName(id);
  const { owner, owner_id } = ownerColumns(caller.sub);
  try {
    await ctx.db.as(caller, (db) =>
      db.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, name, owner, owner_id, body.public === true, parseBucketLimit(body.file_size_limit) ?? null, mimeTypes(body.allowed_mime_types) ?? null],
      ),
    );
  } catch (error) {
    if (error instanceof StorageError && error.code === 'KeyAlreadyExists') throw errors.bucketAlreadyExists();
    throw error;
  }
  sendJson(res, 200, { name });
}

export async function updateBucket(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, caller: Caller, id: string): Promise<void> {
  const body = await readJson<BucketBody>(req);
  const sets: string[] = [];
  const values: unknown[] = [id];
  const set = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (typeof body.public === 'boolean') set('public', body.public);
  const limit = parseBucketLimit(body.file_size_limit);
  if (limit !== undefined) set('file_size_limit', limit);
  const mimes = mimeTypes(body.allowed_mime_types);
  if (mimes !== undefined) set('allowed_mime_types', mimes);
  set('updated_at', new Date());
  const { rows } = await ctx.db.as(caller, (db) =>
    db.query(`update storage.buckets set ${sets.join(', ')} where id = $1 returning id`, values),
  );
  if (!rows[0]) throw errors.noSuchBucket();
  sendJson(res, 200, { message: 'Successfully updated' });
}

export async function emptyBucket(ctx: StorageContext, res: ServerResponse, caller: Caller, id: string): Promise<void> {
  const versions = await ctx.db.as(caller, async (db) => {
    const bucket = await db.query('select id from storage.buckets where id = $1', [id]);
    if (!bucket.rows[0]) throw errors.noSuchBucket();
    const { rows } = await db.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [id]);
    return rows.map((row) => row.version);
  });
  await ctx.files.removeMany(versions);
  // Storage queues the emptying; here it is done by the time the answer comes.
  sendJson(res, 200, { message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}

export async function deleteBucket(ctx: StorageContext, res: ServerResponse, caller: Caller, id: string): Promise<void> {
  const { rows: held } = await ctx.db.pool.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
  if (held[0]) {
    // Only tell callers who can see the bucket that it is not empty.
    await getVisibleBucket(ctx, caller, id);
    throw errors.bucketNotEmpty();
  }
  await ctx.db.as(caller, async (db) => {
    const bucket = await db.query('select id from storage.buckets where id = $1', [id]);
    if (!bucket.rows[0]) throw errors.noSuchBucket();
    const { rows } = await db.query('delete from storage.buckets where id = $1 returning id', [id]);
    if (!rows[0]) throw errors.noSuchBucket();
  }).catch((error: unknown) => {
    // The objects' foreign key refuses to drop a bucket that still holds objects.
    if (error instanceof StorageError && error.message === 'The related resource does not exist') throw errors.bucketNotEmpty();
    throw error;
  });
  sendJson(res, 200, { message: 'Successfully deleted' });
}
