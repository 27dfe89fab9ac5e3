// TUS 1.0.0 resumable uploads at /upload/resumable, on @tus/server with a file store under the
// data directory (as Supabase Storage, which uses the same library). Upload-Metadata carries
// bucketName, objectName, contentType, cacheControl and optional metadata (JSON); `x-upsert`
// allows overwriting. The caller's JWT (signature, expiry) is checked on every request. RLS
// decides at creation; the upload then remembers who passed (role and subject), so later
// requests by that caller skip the database, and anyone else (or anyone after a restart) is
// checked against RLS again. Bucket limits apply at creation (mime type, declared size), while
// bytes arrive (size) and again on completion, when the file moves into the object store and
// the row is written under the caller's RLS. An upload never completed leaves no row, and its
// file goes on DELETE or when it expires.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { FileStore } from '@tus/file-store';
import { EVENTS, Metadata, Server, type ServerOptions, type Upload } from '@tus/server';
import { allowedOrigins } from '../lib/origins.ts';
import type { StorageContext } from './context.ts';
import type { BucketRow } from './db.ts';
import { errors, StorageError } from './errors.ts';
import type { Caller, DbRole } from './jwt.ts';
import { checkMimeType, sizeLimit } from './limits.ts';
import { bucketFor, cacheControlOf, checkCanUpload, commitObject, storableMetadata, type UploadTarget } from './upload.ts';

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];

const tusPath = '/upload/resumable';
const expiry = 24 * 60 * 60 * 1000;

/**
 * A Node request's body as a Web stream that hands the socket's reads over as they are, with up to
 * 1 MiB queued. @tus/server's own Node entry (`server.handle`, through srvx) uses `Readable.toWeb`,
 * which copies every 64 KiB read into a new array and pauses the socket after each: on loopback
 * that garbage and churn held TUS well under a plain PUT (docs/decisions.md, "What limits loopback").
 * `release` lets go of a body the answer did not need: Node then reads the rest and drops it, as it
 * does for any request nobody read, so the client can finish sending and take the answer.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; release: () => void } {
  let onData: ((chunk: Buffer) => void) | null = null;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on('data', onData);
        req.once('end', () => controller.close());
        req.once('error', (error) => controller.error(error));
      },
      pull: () => void req.resume(),
      cancel: () => void req.destroy(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 1024 * 1024 }),
  );
  const release = () => {
    if (onData) req.off('data', onData);
    req.resume();
  };
  return { stream, release };
}

/** `server.handle` with the body read by `bodyStream`; the rest as srvx does it. */
async function handleNode(server: Server, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : bodyStream(req);
  // The library reads only the path from the URL (Location takes its host from the Host header),
  // so a Host that is no host name cannot break it.
  const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method,
    headers,
    body: body?.stream ?? null,
    duplex: 'half',
  } as RequestInit);
  // What srvx's request carries: the library ends its write, keeping what arrived, when the client goes away.
  Object.assign(request, { runtime: { name: 'node', node: { req, res } } });
  const response = await server.handleWeb(request);
  res.writeHead(response.status, [...response.headers].flat());
  if (response.body) await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
  else res.end();
  if (!req.complete) body?.release();
}

/** A TUS error: the real HTTP status and a plain-text body. */
function tusError(error: unknown): { status_code: number; body: string } {
  if (error instanceof StorageError) return { status_code: error.status >= 500 ? 500 : error.status, body: `${error.message}\n` };
  const known = error as { status_code?: number; body?: string };
  if (known && typeof known.status_code === 'number') return { status_code: known.status_code, body: known.body ?? '' };
  console.error('[storage/tus]', error);
  return { status_code: 500, body: 'Internal server error\n' };
}

interface UploadInfo {
  bucketName: string;
  objectName: string;
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

function uploadInfo(metadata: Record<string, string | null> | undefined): UploadInfo {
  const bucketName = metadata?.bucketName;
  const objectName = metadata?.objectName;
  if (!bucketName) throw errors.invalidRequest('Upload-Metadata must include bucketName');
  if (!objectName) throw errors.invalidRequest('Upload-Metadata must include objectName');
  let userMetadata: Record<string, unknown> | null = null;
  if (metadata?.metadata) {
    try {
      userMetadata = JSON.parse(metadata.metadata) as Record<string, unknown>;
    } catch {
      throw errors.invalidRequest('Upload-Metadata metadata must be JSON');
    }
    storableMetadata(userMetadata);
  }
  return {
    bucketName,
    objectName,
    contentType: metadata?.contentType || 'application/octet-stream',
    cacheControl: cacheControlOf(metadata?.cacheControl),
    userMetadata,
  };
}

/** Who passed the RLS check for an upload, and the size limit its bucket had then. */
interface Grant {
  role: DbRole;
  sub: string | null;
  upsert: boolean;
  sizeLimit: number;
  grantedAt: number;
}

/** The size limit of the bucket an upload goes to, before anyone was granted it: the global limit when none is known. */
async function bucketSizeLimit(ctx: StorageContext, store: FileStore, req: TusRequest, id: string | null): Promise<number> {
  let bucketName: string | null | undefined;
  if (req.method === 'POST') {
    try {
      bucketName = Metadata.parse(req.headers.get('upload-metadata') ?? undefined).bucketName;
    } catch {
      bucketName = null;
    }
  } else if (id) {
    bucketName = (await store.getUpload(id).catch(() => null))?.metadata?.bucketName;
  }
  const bucket = bucketName ? await ctx.db.findBucket(bucketName) : null;
  return bucket ? sizeLimit(ctx.globalLimit, bucket) : ctx.globalLimit;
}

/** A finished upload's file becomes the object, checked against its bucket's limits as they are now (they may have changed since creation). */
async function commitUpload(ctx: StorageContext, upload: Upload, info: UploadInfo, target: UploadTarget, file: string): Promise<void> {
  const size = upload.size ?? upload.offset;
  const bucket = await bucketFor(ctx, info.bucketName);
  checkMimeType(bucket, info.contentType);
  if (size > sizeLimit(ctx.globalLimit, bucket)) throw errors.entityTooLarge();
  const eTag = `"${createHash('md5').update(`${upload.id}:${size}:${Date.now()}`).digest('hex')}"`;
  await commitObject(ctx, target, file, { size, eTag }, {
    mimetype: info.contentType,
    cacheControl: info.cacheControl,
    userMetadata: info.userMetadata,
  });
}

export interface TusService {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): void;
}

export function createTus(ctx: StorageContext): TusService {
  // No expiration extension: @tus/server would read the upload back after onUploadFinish moved
  // it away. Stale uploads are swept here instead (see `sweep`).
  const store = new FileStore({ directory: ctx.files.tusDir });
  const callers = new WeakMap<TusRequest, Promise<Caller>>();
  const siteOrigins = allowedOrigins(ctx.config);
  // Upload id -> the caller RLS let write it. In memory: after a restart the first request of
  // each upload is checked against the database again.
  const grants = new Map<string, Grant>();
  const grantFor = (id: string, caller: Caller, upsert: boolean): Grant | null => {
    const grant = grants.get(id);
    return grant && grant.role === caller.role && grant.sub === caller.sub && grant.upsert === upsert ? grant : null;
  };
  const remember = (id: string, caller: Caller, upsert: boolean, bucket: BucketRow) =>
    grants.set(id, { role: caller.role, sub: caller.sub, upsert, sizeLimit: sizeLimit(ctx.globalLimit, bucket), grantedAt: Date.now() });

  /** The caller of this request (verified once per request). */
  const callerOf = (req: TusRequest): Promise<Caller> => {
    let caller = callers.get(req);
    if (!caller) {
      const authorization = req.headers.get('authorization') ?? undefined;
      caller = ctx.tokens.caller({ headers: { authorization } } as IncomingMessage);
      callers.set(req, caller);
    }
    return caller;
  };
  const upsertOf = (req: TusRequest) => (req.headers.get('x-upsert') ?? '').toLowerCase() === 'true';
  const targetOf = (req: TusRequest, caller: Caller, info: UploadInfo): UploadTarget => ({
    bucketId: info.bucketName,
    name: info.objectName,
    upsert: upsertOf(req),
    ownerSub: caller.sub,
    caller,
  });

  const server = new Server({
    path: tusPath,
    datastore: store,
    // Location is built from the Host the client reached; forwarded headers are anyone's to
    // send (the gateway, the only way in, drops them).
    respectForwardedHeaders: false,
    allowedCredentials: true,
    allowedOrigins: (origin) => siteOrigins.has(origin),
    allowedHeaders: ['authorization', 'apikey', 'x-client-info', 'x-upsert', 'content-type', 'x-supabase-api-version'],
    // Reachable through the gateway, where this service lives under /storage/v1.
    generateUrl: (_req, { proto, host, path: base, id }) => {
      const origin = host ? `${proto}://${host}` : ctx.config.urls.api;
      return `${origin}/storage/v1${base}/${id}`;
    },
    namingFunction: () => randomUUID().replaceAll('-', ''),
    maxSize: async (req, id) => (id ? grants.get(id)?.sizeLimit : undefined) ?? bucketSizeLimit(ctx, store, req, id),
    onIncomingRequest: async (req, id) => {
      const caller = await callerOf(req);
      if (req.method !== 'POST') {
        // Resuming, reading or ending an upload: only a caller allowed to write this object, so
        // nobody else can probe, extend or cancel it.
        if (grantFor(id, caller, upsertOf(req))) return;
        const upload = await store.getUpload(id);
        const info = uploadInfo(upload.metadata);
        await checkCanUpload(ctx, targetOf(req, caller, info));
        remember(id, caller, upsertOf(req), await bucketFor(ctx, info.bucketName));
      }
    },
    onUploadCreate: async (req, upload: Upload) => {
      const caller = await callerOf(req);
      const info = uploadInfo(upload.metadata);
      const bucket = await bucketFor(ctx, info.bucketName);
      checkMimeType(bucket, info.contentType);
      if (upload.size !== undefined && upload.size > sizeLimit(ctx.globalLimit, bucket)) throw errors.entityTooLarge();
      await checkCanUpload(ctx, targetOf(req, caller, info), { mimetype: info.contentType, contentLength: upload.size });
      remember(upload.id, caller, upsertOf(req), bucket);
      return {};
    },
    onUploadFinish: async (req, upload: Upload) => {
      const file = path.join(ctx.files.tusDir, upload.id);
      try {
        const caller = await callerOf(req);
        const info = uploadInfo(upload.metadata);
        await commitUpload(ctx, upload, info, targetOf(req, caller, info), file);
      } catch (error) {
        await ctx.files.removeFile(file);
        throw error;
      } finally {
        grants.delete(upload.id);
        await store.configstore.delete(upload.id).catch(() => {});
      }
      return {};
    },
    onResponseError: (_req, error) => tusError(error),
  });

  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => grants.delete(id));

  const sweep = () => {
    const stale = Date.now() - expiry;
    for (const [id, grant] of grants) if (grant.grantedAt < stale) grants.delete(id);
    void ctx.files.sweepStale(ctx.files.tusDir, expiry).catch(() => {});
  };
  sweep();
  const timer = setInterval(sweep, 60 * 60 * 1000);
  timer.unref();

  return {
    handle: (req, res) => handleNode(server, req, res),
    close: () => clearInterval(timer),
  };
}
