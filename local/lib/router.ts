// The one router of every local service (Auth, Storage, the gateway, the sandbox), over
// find-my-way (Fastify's router, which Supabase Storage itself runs on). It matches method and
// path only: bodies are never read here, so uploads stream on to their handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import createMatcher, { type HTTPMethod } from 'find-my-way';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const methods: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Path parameters, percent-decoded; a trailing `*` route's rest is `params['*']`. */
export type Params = Record<string, string>;

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, params: Params, url: URL) => unknown;

export interface RouteMiss {
  url: URL;
  /** The methods this path has routes for; empty when no route has the path. */
  allowed: Method[];
  /** The path's percent-encoding is broken, so no route could be matched. */
  badUrl: boolean;
}

export interface RouterOptions {
  /** `/user/` is `/user` (GoTrue). */
  ignoreTrailingSlash?: boolean;
  /** Headers every answer of this service carries. */
  headers?: Record<string, string>;
  notFound(req: IncomingMessage, res: ServerResponse, miss: RouteMiss): unknown;
  /** Answers a handler's throw (or rejection). */
  onError(req: IncomingMessage, res: ServerResponse, error: unknown): unknown;
}

export interface Router {
  /** A GET route answers HEAD too. */
  on(method: Method | readonly Method[], path: string, handler: RouteHandler): Router;
  all(path: string, handler: RouteHandler): Router;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function isBadUrl(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

export function createRouter(options: RouterOptions): Router {
  const matcher = createMatcher({
    ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
    // find-my-way's default of 100 would turn a long id into a 404.
    maxParamLength: 2048,
  });
  const find = (method: string, rawUrl: string) => matcher.find(method as HTTPMethod, rawUrl);

  const router: Router = {
    on(method, path, handler) {
      const list: readonly Method[] = typeof method === 'string' ? [method] : method;
      const withHead = list.includes('GET') && !list.includes('HEAD') ? [...list, 'HEAD' as const] : list;
      for (const one of withHead) matcher.on(one, path, () => undefined, handler);
      return router;
    },
    all(path, handler) {
      return router.on(methods, path, handler);
    },
    async handle(req, res) {
      for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
      const rawUrl = req.url ?? '/';
      const url = new URL(rawUrl, 'http://local');
      try {
        const found = find(req.method ?? 'GET', rawUrl);
        if (!found) {
          const path = rawUrl.split('?')[0];
          const allowed = methods.filter((method) => find(method, rawUrl));
          await options.notFound(req, res, { url, allowed, badUrl: isBadUrl(path) });
          return;
        }
        await (found.store as RouteHandler)(req, res, found.params as Params, url);
      } catch (error) {
        await options.onError(req, res, error);
      }
    },
  };
  return router;
}
