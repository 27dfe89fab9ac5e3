// Storing one object: check the bucket's limits, try the storage.objects INSERT under the
// caller's role before reading a byte (rolled back), stream the body to a temp file, then write
// the row and move the file into place in one transaction. Used by REST uploads, signed
// uploads and (for the final step) TUS.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { StorageContext } from './context.ts';
import { ownerColumns, setCaller, type BucketRow, type Db, type ObjectMetadata } from './db.ts';
import { errors, StorageError } from './errors.ts';
import { writeTemp, type StoredTemp } from './files.ts';
import { checkKey } from './http.ts';
import type { Caller } from './jwt.ts';
import { checkMimeType, sizeLimit } from './limits.ts';

export interface UploadTarget {
  bucketId: string;
  name: string;
  upsert: boolean;
  /** Who owns the new row: the caller's `sub`, or a signed upload URL's owner. */
  ownerSub: string | null;
  /** Whose role and claims the row is written under; null writes as the storage admin. */
  caller: Caller | null;
}

interface ObjectDetails {
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/** Finds the bucket (as the storage admin, as Supabase reads limits) or throws NoSuchBucket. */
export async function bucketFor(ctx: StorageContext, bucketId: string): Promise<BucketRow> {
  const bucket = await ctx.db.findBucket(bucketId);
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

/**
 * What the test insert before the bytes carries, as hosted Storage's: the declared type and
 * length (when known), so rules on the object's size can refuse before a byte is stored.
 */
export interface DeclaredUpload {
  mimetype: string;
  contentLength?: number;
}

async function insertRow(db: Db, target: UploadTarget, version: string, metadata: ObjectMetadata | DeclaredUpload | null, userMetadata: Record<string, unknown> | null): Promise<string> {
  const { owner, owner_id } = ownerColumns(target.ownerSub);
  const values = [target.bucketId, target.name, owner, owner_id, version, metadata, userMetadata];
  const conflict = target.upsert
    ? `on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
         version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
         updated_at = now(), last_accessed_at = now()`
    : '';
  const { rows } = await db.query<{ id: string }>(
    `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7) ${conflict} returning id`,
    values,
  );
  return rows[0].id;
}

/** Would the caller be allowed to write this object? Throws 403 (RLS) or 409 (exists). */
export async function checkCanUpload(ctx: StorageContext, target: UploadTarget, declared?: DeclaredUpload): Promise<void> {
  checkKey(target.name);
  await ctx.db.tx(
    null,
    async (db) => {
      if (target.caller) await setCaller(db, target.caller);
      await insertRow(db, target, randomUUID(), declared ?? null, null);
    },
    { rollback: true },
  );
}

/**
 * Writes the row for a finished upload and moves `filePath` into the object store, in one
 * transaction. On failure the file is deleted: no row, no orphan.
 */
export async function commitObject(
  ctx: StorageContext,
  target: UploadTarget,
  filePath: string,
  stored: { size: number; eTag: string },
  details: ObjectDetails,
): Promise<{ id: string; version: string }> {
  const version = randomUUID();
  const metadata: ObjectMetadata = {
    eTag: stored.eTag,
    size: stored.size,
    mimetype: details.mimetype,
    cacheControl: details.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: stored.size,
    httpStatusCode: 200,
  };
  const moved = { path: null as string | null };
  try {
    const result = await ctx.db.tx(null, async (db) => {
      const previous = await db.query<{ version: string | null }>(
        'select version from storage.objects where bucket_id = $1 and name = $2 for update',
        [target.bucketId, target.name],
      );
      if (target.caller) await setCaller(db, target.caller);
      const id = await insertRow(db, target, version, metadata, details.userMetadata);
      moved.path = await ctx.files.adopt(filePath, version);
      return { id, oldVersion: previous.rows[0]?.version ?? null };
    });
    if (result.oldVersion) await ctx.files.remove(result.oldVersion);
    return { id: result.id, version };
  } catch (error) {
    await ctx.files.removeFile(moved.path ?? filePath);
    throw error;
  }
}

function parseUserMetadata(value: string | undefined, base64: boolean): Record<string, unknown> | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(base64 ? Buffer.from(value, 'base64').toString('utf8') : value);
  } catch {
    throw errors.invalidRequest('Invalid metadata');
  }
  return parsed && typeof parsed === 'object' ? storableMetadata(parsed as Record<string, unknown>) : null;
}

/** User metadata Postgres can store as jsonb: no NUL in any key or string (JSON writes it \u0000). */
export function storableMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(metadata).includes('\\u0000')) throw errors.invalidRequest('Invalid metadata: it holds a NUL character');
  return metadata;
}

/**
 * The Cache-Control an object is served with: seconds become `max-age=N`. Only printable ASCII,
 * as an HTTP header value must be: anything else would make the object undownloadable.
 */
export function cacheControlOf(value: string | null | undefined): string {
  if (!value) return 'no-cache';
  if (!/^[\x20-\x7e]{1,1000}$/.test(value)) throw errors.invalidRequest('cacheControl must be printable ASCII (at most 1000 characters)');
  return /^\d+$/.test(value) ? `max-age=${value}` : value;
}

interface ReceivedBody {
  temp: StoredTemp;
  details: ObjectDetails;
}

/** A multipart form: fields `cacheControl`, `metadata`, `contentType`, and one file. */
function receiveMultipart(ctx: StorageContext, req: IncomingMessage, bucket: BucketRow, limit: number): Promise<ReceivedBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(errors.invalidRequest('Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let failure: unknown = null;
    let file: Promise<{ temp: StoredTemp; mimetype: string }> | null = null;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      if (file || failure) {
        stream.resume();
        return;
      }
      const mimetype = fields.contentType || info.mimeType || 'application/octet-stream';
      try {
        checkMimeType(bucket, mimetype);
      } catch (error) {
        failure = error;
        stream.resume();
        return;
      }
      file = writeTemp(ctx.files, stream, limit).then((temp) => ({ temp, mimetype }));
      file.catch((error: unknown) => {
        failure ??= error;
      });
    });
    const fail = (error: unknown) => {
      failure ??= error;
    };
    parser.on('error', (error) => fail(error instanceof StorageError ? error : errors.invalidRequest('Malformed multipart body')));
    req.once('aborted', () => {
      fail(errors.invalidRequest('Upload aborted by the client'));
      parser.destroy();
      finish();
    });
    const finish = () => {
      void (async () => {
        let received: { temp: StoredTemp; mimetype: string } | null = null;
        try {
          received = file ? await file : null;
        } catch (error) {
          fail(error);
        }
        if (failure || !received) {
          if (received) await ctx.files.removeFile(received.temp.path);
          reject(failure ?? errors.noContent());
          return;
        }
        try {
          resolve({
            temp: received.temp,
            details: {
              mimetype: received.mimetype,
              cacheControl: cacheControlOf(fields.cacheControl),
              userMetadata: parseUserMetadata(fields.metadata, false),
            },
          });
        } catch (error) {
          await ctx.files.removeFile(received.temp.path);
          reject(error);
        }
      })();
    };
    parser.once('close', finish);
    req.pipe(parser);
  });
}

async function receiveRaw(ctx: StorageContext, req: IncomingMessage, limit: number, mimetype: string): Promise<ReceivedBody> {
  const userMetadata = parseUserMetadata(req.headers['x-metadata'] as string | undefined, true);
  const temp = await writeTemp(ctx.files, req, limit);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) !== temp.size) {
    await ctx.files.removeFile(temp.path);
    throw errors.invalidRequest('Upload aborted by the client');
  }
  return {
    temp,
    details: { mimetype, cacheControl: cacheControlOf(req.headers['cache-control']), userMetadata },
  };
}

/** The whole upload of one request body (multipart or raw). Returns the new row's id. */
export async function uploadFromRequest(ctx: StorageContext, req: IncomingMessage, target: UploadTarget): Promise<{ id: string }> {
  checkKey(target.name);
  const bucket = await bucketFor(ctx, target.bucketId);
  const limit = sizeLimit(ctx.globalLimit, bucket);
  const contentType = req.headers['content-type'] ?? 'application/octet-stream';
  const multipart = /^multipart\/form-data/i.test(contentType);
  let declared: DeclaredUpload | undefined;
  if (!multipart) {
    checkMimeType(bucket, contentType);
    const contentLength = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(contentLength) && contentLength > limit) throw errors.entityTooLarge();
    declared = { mimetype: contentType, ...(Number.isFinite(contentLength) ? { contentLength } : {}) };
  }
  await checkCanUpload(ctx, target, declared);
  const body = multipart ? await receiveMultipart(ctx, req, bucket, limit) : await receiveRaw(ctx, req, limit, contentType);
  const { id } = await commitObject(ctx, target, body.temp.path, { size: body.temp.size, eTag: `"${body.temp.md5}"` }, body.details);
  return { id };
}
