// Maps Storage API paths (prefix /storage/v1 already stripped by the gateway) to handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drain, sendJson } from '../lib/http.ts';
import { createRouter, type Params, type Router } from '../lib/router.ts';
import * as buckets from './buckets.ts';
import type { StorageContext } from './context.ts';
import { errors, sendError, StorageError } from './errors.ts';
import type { Caller } from './jwt.ts';
import * as objects from './objects.ts';
import * as signed from './signed.ts';
import type { TusService } from './tus.ts';

/** Splits a route's decoded rest, "{bucket}/{path...}", into the bucket and the object name. */
function bucketAndName(rest: string | undefined): { bucketId: string; name: string } {
  const slash = rest?.indexOf('/') ?? -1;
  if (!rest || slash <= 0) throw errors.notFound();
  return { bucketId: rest.slice(0, slash), name: rest.slice(slash + 1) };
}

/** A route on "{bucket}/{path...}". */
const onObject =
  (handler: (req: IncomingMessage, res: ServerResponse, bucketId: string, name: string) => unknown) =>
  (req: IncomingMessage, res: ServerResponse, params: Params) => {
    const { bucketId, name } = bucketAndName(params['*']);
    return handler(req, res, bucketId, name);
  };

/** Answers an error once the client has finished sending, or it may never read the answer. */
async function fail(req: IncomingMessage, res: ServerResponse, error: unknown): Promise<void> {
  await drain(req);
  if (req.method === 'HEAD' && !res.headersSent) {
    res.writeHead(error instanceof StorageError ? error.httpStatus : 400).end();
    return;
  }
  sendError(res, error);
}

export function createHandler(ctx: StorageContext, tus: TusService): Router['handle'] {
  const router = createRouter({
    notFound: (req, res, { badUrl, url }) => fail(req, res, badUrl ? errors.invalidKey(url.pathname) : errors.notFound()),
    onError: fail,
  });
  /** A route that needs the caller's JWT. */
  const signedIn =
    (handler: (req: IncomingMessage, res: ServerResponse, caller: Caller, params: Params, url: URL) => unknown) =>
    async (req: IncomingMessage, res: ServerResponse, params: Params, url: URL) =>
      handler(req, res, await ctx.tokens.caller(req), params, url);
  const signedInObject = (handler: (req: IncomingMessage, res: ServerResponse, caller: Caller, bucketId: string, name: string) => unknown) =>
    signedIn((req, res, caller, params) => {
      const { bucketId, name } = bucketAndName(params['*']);
      return handler(req, res, caller, bucketId, name);
    });
  /** The routes Storage also takes with a trailing slash. */
  const withSlash = (path: string) => [path, `${path}/`];

  const resumable = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await tus.handle(req, res);
    } catch (error) {
      console.error('[storage/tus]', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal server error\n');
    }
  };
  router.all('/upload/resumable', resumable).all('/upload/resumable/*', resumable);

  for (const path of ['/status', '/health']) router.on('GET', path, (_req, res) => sendJson(res, 200, { status: 'ok' }));

  // Routes that need no JWT: public objects and signed URLs.
  router.on('GET', '/object/public/*', onObject((req, res, bucketId, name) => objects.downloadPublic(ctx, req, res, bucketId, name)));
  router.on('GET', '/object/info/public/*', onObject((_req, res, bucketId, name) => objects.objectInfo(ctx, res, null, bucketId, name)));
  router.on('GET', '/object/sign/*', onObject((req, res, bucketId, name) => signed.downloadSigned(ctx, req, res, bucketId, name)));
  router.on(['PUT', 'POST'], '/object/upload/sign/*', async (req, res, params, url) => {
    if (url.searchParams.has('token')) {
      const { bucketId, name } = bucketAndName(params['*']);
      return signed.uploadSigned(ctx, req, res, bucketId, name);
    }
    const caller = await ctx.tokens.caller(req);
    if (req.method === 'POST') {
      const { bucketId, name } = bucketAndName(params['*']);
      return signed.signUpload(ctx, req, res, caller, bucketId, name);
    }
    // A PUT without a token is a plain upload into a bucket called "upload".
    const { bucketId, name } = bucketAndName(`upload/sign/${params['*']}`);
    return objects.uploadObject(ctx, req, res, caller, bucketId, name);
  });

  for (const path of withSlash('/bucket')) {
    router.on('GET', path, signedIn((req, res, caller) => buckets.listBuckets(ctx, req, res, caller)));
    router.on('POST', path, signedIn((req, res, caller) => buckets.createBucket(ctx, req, res, caller)));
  }
  for (const path of withSlash('/bucket/:id/empty')) {
    router.on('POST', path, signedIn((_req, res, caller, { id }) => buckets.emptyBucket(ctx, res, caller, id)));
  }
  for (const path of withSlash('/bucket/:id')) {
    router.on('GET', path, signedIn((_req, res, caller, { id }) => buckets.getBucket(ctx, res, caller, id)));
    router.on('PUT', path, signedIn((req, res, caller, { id }) => buckets.updateBucket(ctx, req, res, caller, id)));
    router.on('DELETE', path, signedIn((_req, res, caller, { id }) => buckets.deleteBucket(ctx, res, caller, id)));
  }

  for (const path of withSlash('/object/list/:bucket')) {
    router.on('POST', path, signedIn((req, res, caller, { bucket }) => objects.listObjects(ctx, req, res, caller, bucket)));
  }
  for (const path of withSlash('/object/list-v2/:bucket')) {
    router.on('POST', path, signedIn((req, res, caller, { bucket }) => objects.listObjectsV2(ctx, req, res, caller, bucket)));
  }
  router.on('POST', '/object/move', signedIn((req, res, caller) => objects.moveObject(ctx, req, res, caller)));
  router.on('POST', '/object/copy', signedIn((req, res, caller) => objects.copyObject(ctx, req, res, caller)));
  for (const path of withSlash('/object/sign/:bucket')) {
    router.on('POST', path, signedIn((req, res, caller, { bucket }) => signed.signDownloads(ctx, req, res, caller, bucket)));
  }
  router.on('POST', '/object/sign/*', signedInObject((req, res, caller, bucketId, name) => signed.signDownload(ctx, req, res, caller, bucketId, name)));

  const info = signedInObject((_req, res, caller, bucketId, name) => objects.objectInfo(ctx, res, caller, bucketId, name));
  router.on('GET', '/object/info/*', info).on('GET', '/object/info/authenticated/*', info);
  const download = signedInObject((req, res, caller, bucketId, name) => objects.downloadObject(ctx, req, res, caller, bucketId, name));
  router.on('GET', '/object/authenticated/*', download).on('GET', '/object/*', download);
  for (const path of withSlash('/object/:bucket')) {
    router.on('DELETE', path, signedIn((req, res, caller, { bucket }) => objects.removeObjects(ctx, req, res, caller, bucket)));
  }
  router.on(['POST', 'PUT'], '/object/*', signedInObject((req, res, caller, bucketId, name) => objects.uploadObject(ctx, req, res, caller, bucketId, name)));
  router.on('DELETE', '/object/*', signedInObject((_req, res, caller, bucketId, name) => objects.removeObject(ctx, res, caller, bucketId, name)));
  return router.handle;
}
