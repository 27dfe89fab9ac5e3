// The SPA on the web port: Vite's dev server under `npm start`, the production build under tests.
// `/api/*` and `/oauth/callback` are proxied to their Edge Functions through the gateway, as the
// static host's rewrites do in production (docs/deploy.md).
import path from 'node:path';
import { build, createServer, preview, type Connect, type Plugin } from 'vite';
import { brotliAssets } from './brotli-assets.ts';
import { repoRoot, type StackConfig } from './config.ts';
import { proxyTo } from './lib/proxy.ts';

/** The SPA's settings for this stack: its own gateway and anon key, by the stack's choice (web/build-settings.ts). */
export function localSpaEnv(config: StackConfig): Record<string, string> {
  return { VITE_SUPABASE_URL: config.urls.api, VITE_SUPABASE_ANON_KEY: config.anonKey, CASTLOOP_LOCAL_STACK: '1' };
}

// The spec's client calls same-origin paths; the OAuth redirect URI is on the site too, so the
// browser binding cookie set by /api reaches it.
const apiRoutes: [prefix: string, target: string][] = [
  ['/api', '/functions/v1/api'],
  ['/oauth/callback', '/functions/v1/oauth-callback'],
];

/**
 * The site's `/api` and `/oauth/callback` through the gateway at `apiUrl`, for Vite's dev and
 * preview servers. The stack's own proxy (lib/proxy.ts) delivers an answer given before the
 * request's body was all sent (a 413) and keeps the client's connection usable after it, which
 * Vite's built-in proxy does not.
 */
export function localApiProxy(apiUrl: string): Plugin {
  const target = new URL(apiUrl);
  const proxyApi: Connect.NextHandleFunction = (req, res, next) => {
    const url = req.url ?? '/';
    for (const [prefix, functionPath] of apiRoutes) {
      if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
        return proxyTo({ host: target.hostname, port: Number(target.port) }, `${functionPath}${url.slice(prefix.length)}`, req, res);
      }
    }
    next();
  };
  return {
    name: 'castloop-local-api-proxy',
    configureServer: (server) => void server.middlewares.use(proxyApi),
    configurePreviewServer: (server) => void server.middlewares.use(proxyApi),
  };
}

/**
 * Runs `build` as `vite build` runs for a deployment: Vite keeps a NODE_ENV already set, and
 * under vitest (the test stack's global setup) that is 'test', which built React's development
 * bundle (its dev runtime and checks, slower on every render) instead of what users get.
 */
async function productionBuild<T>(build: () => Promise<T>): Promise<T> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export async function startWeb(config: StackConfig, mode: 'dev' | 'preview'): Promise<{ stop(): Promise<void> }> {
  // The SPA reads these at build time (vite.config.ts): point it at this stack's gateway.
  Object.assign(process.env, localSpaEnv(config));
  const configFile = path.join(repoRoot, 'vite.config.ts');
  const server = { port: config.ports.web, host: config.host, strictPort: true };
  try {
    if (mode === 'dev') {
      const dev = await createServer({ configFile, plugins: [localApiProxy(config.urls.api)], server, logLevel: 'warn' });
      await dev.listen();
      return { stop: () => dev.close() };
    }
    const outDir = path.join(config.dataDir, 'web-dist');
    await productionBuild(() => build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } }));
    const served = await preview({ configFile, plugins: [localApiProxy(config.urls.api), brotliAssets()], preview: server, build: { outDir }, logLevel: 'warn' });
    return {
      stop: () => new Promise((resolve) => {
        served.httpServer.close(() => resolve());
        (served.httpServer as import("node:http").Server).closeAllConnections?.();
      }),
    };
  } catch (error) {
    throw new Error(`Web server could not start on ${config.urls.web}: ${(error as Error).message}`, { cause: error });
  }
}
