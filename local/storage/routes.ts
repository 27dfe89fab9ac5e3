// Dispatches a Storage API request (prefix /storage/v1 already stripped by the gateway).
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as buckets from './buckets.ts';
import type { StorageContext } from './context.ts';
import { errors, sendError } from './errors.ts';
import { sendJson } from '../lib/service.ts';
import { decodePath, drain } from './http.ts';
import * as objects from './objects.ts';
import * as signed from './signed.ts';
import type { TusService } from './tus.ts';

/** Splits "/{bucket}/{path...}" into the bucket and the decoded object name. */
function bucketAndName(rest: string): { bucketId: string; name: string } {
  const slash = rest.indexOf('/');
  if (slash <= 0) throw errors.notFound();
  return { bucketId: decodePath(rest.slice(0, slash)), name: decodePath(rest.slice(slash + 1)) };
}

async function route(ctx: StorageContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const pathname = (req.url ?? '/').split('?')[0];
  let m: RegExpExecArray | null;

  if (pathname === '/status' || pathname === '/health') return sendJson(res, 200, { status: 'ok' });

  // Routes that need no JWT: public objects and signed URLs.
  if ((m = /^\/object\/public\/(.+)$/.exec(pathname)) && (method === 'GET' || method === 'HEAD')) {
    const { bucketId, name } = bucketAndName(m[1]);
    return objects.downloadPublic(ctx, req, res, bucketId, name);
  }
  if ((m = /^\/object\/info\/public\/(.+)$/.exec(pathname)) && method === 'GET') {
    const { bucketId, name } = bucketAndName(m[1]);
    return objects.objectInfo(ctx, res, null, bucketId, name);
  }
  if ((m = /^\/object\/sign\/(.+)$/.exec(pathname)) && (method === 'GET' || method === 'HEAD')) {
    const { bucketId, name } = bucketAndName(m[1]);
    return signed.downloadSigned(ctx, req, res, bucketId, name);
  }
  if ((m = /^\/object\/upload\/sign\/(.+)$/.exec(pathname)) && (method === 'PUT' || method === 'POST') && new URL(req.url ?? '/', 'http://x').searchParams.has('token')) {
    const { bucketId, name } = bucketAndName(m[1]);
    return signed.uploadSigned(ctx, req, res, bucketId, name);
  }

  const caller = await ctx.tokens.caller(req);

  if (pathname === '/bucket' || pathname === '/bucket/') {
    if (method === 'GET') return buckets.listBuckets(ctx, req, res, caller);
    if (method === 'POST') return buckets.createBucket(ctx, req, res, caller);
  }
  if ((m = /^\/bucket\/([^/]+)\/empty\/?$/.exec(pathname)) && method === 'POST') {
    return buckets.emptyBucket(ctx, res, caller, decodePath(m[1]));
  }
  if ((m = /^\/bucket\/([^/]+)\/?$/.exec(pathname))) {
    const id = decodePath(m[1]);
    if (method === 'GET') return buckets.getBucket(ctx, res, caller, id);
    if (method === 'PUT') return buckets.updateBucket(ctx, req, res, caller, id);
    if (method === 'DELETE') return buckets.deleteBucket(ctx, res, caller, id);
  }

  if (method === 'POST') {
    if ((m = /^\/object\/list\/([^/]+)\/?$/.exec(pathname))) return objects.listObjects(ctx, req, res, caller, decodePath(m[1]));
    if ((m = /^\/object\/list-v2\/([^/]+)\/?$/.exec(pathname))) return objects.listObjectsV2(ctx, req, res, caller, decodePath(m[1]));
    if (pathname === '/object/move') return objects.moveObject(ctx, req, res, caller);
    if (pathname === '/object/copy') return objects.copyObject(ctx, req, res, caller);
    if ((m = /^\/object\/sign\/([^/]+)\/?$/.exec(pathname))) return signed.signDownloads(ctx, req, res, caller, decodePath(m[1]));
    if ((m = /^\/object\/sign\/(.+)$/.exec(pathname))) {
      const { bucketId, name } = bucketAndName(m[1]);
      return signed.signDownload(ctx, req, res, caller, bucketId, name);
    }
    if ((m = /^\/object\/upload\/sign\/(.+)$/.exec(pathname))) {
      const { bucketId, name } = bucketAndName(m[1]);
      return signed.signUpload(ctx, req, res, caller, bucketId, name);
    }
  }
  if ((m = /^\/object\/info\/(?:authenticated\/)?(.+)$/.exec(pathname)) && method === 'GET') {
    const { bucketId, name } = bucketAndName(m[1]);
    return objects.objectInfo(ctx, res, caller, bucketId, name);
  }
  if ((m = /^\/object\/authenticated\/(.+)$/.exec(pathname)) && (method === 'GET' || method === 'HEAD')) {
    const { bucketId, name } = bucketAndName(m[1]);
    return objects.downloadObject(ctx, req, res, caller, bucketId, name);
  }
  if ((m = /^\/object\/([^/]+)\/?$/.exec(pathname)) && method === 'DELETE') {
    return objects.removeObjects(ctx, req, res, caller, decodePath(m[1]));
  }
  if ((m = /^\/object\/(.+)$/.exec(pathname))) {
    const { bucketId, name } = bucketAndName(m[1]);
    if (method === 'GET' || method === 'HEAD') return objects.downloadObject(ctx, req, res, caller, bucketId, name);
    if (method === 'POST' || method === 'PUT') return objects.uploadObject(ctx, req, res, caller, bucketId, name);
    if (method === 'DELETE') return objects.removeObject(ctx, res, caller, bucketId, name);
  }
  throw errors.notFound();
}

export function createHandler(ctx: StorageContext, tus: TusService) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === '/upload/resumable' || pathname.startsWith('/upload/resumable/')) {
      try {
        await tus.handle(req, res);
      } catch (error) {
        console.error('[storage/tus]', error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal server error\n');
      }
      return;
    }
    try {
      await route(ctx, req, res);
    } catch (error) {
      // Answer only once the client has finished sending, or it may never read the answer.
      await drain(req);
      if (req.method === 'HEAD' && !res.headersSent) {
        const status = (error as { httpStatus?: number }).httpStatus ?? 400;
        res.writeHead(status).end();
        return;
      }
      sendError(res, error);
    }
  };
}
