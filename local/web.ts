// The SPA on the web port: Vite's dev server under `npm start`, the production build under tests.
// `/api/*` is proxied to the `api` Edge Function through the gateway (see vite.config.ts).
import path from 'node:path';
import { build, createServer, preview } from 'vite';
import { brotliAssets } from './brotli-assets.ts';
import { repoRoot, type StackConfig } from './config.ts';

/** The SPA's settings for this stack: its own gateway and anon key, by the stack's choice (web/build-settings.ts). */
export function localSpaEnv(config: StackConfig): Record<string, string> {
  return { VITE_SUPABASE_URL: config.urls.api, VITE_SUPABASE_ANON_KEY: config.anonKey, CASTLOOP_API_URL: config.urls.api, CASTLOOP_LOCAL_STACK: '1' };
}

export async function startWeb(config: StackConfig, mode: 'dev' | 'preview'): Promise<{ stop(): Promise<void> }> {
  // The SPA reads these at build time (vite.config.ts): point it at this stack's gateway.
  Object.assign(process.env, localSpaEnv(config));
  const configFile = path.join(repoRoot, 'vite.config.ts');
  const server = { port: config.ports.web, host: config.host, strictPort: true };
  try {
    if (mode === 'dev') {
      const dev = await createServer({ configFile, server, logLevel: 'warn' });
      await dev.listen();
      return { stop: () => dev.close() };
    }
    const outDir = path.join(config.dataDir, 'web-dist');
    await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const served = await preview({ configFile, plugins: [brotliAssets()], preview: server, build: { outDir }, logLevel: 'warn' });
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
