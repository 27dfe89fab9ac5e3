import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { type Connect, defineConfig, type Plugin } from 'vite';
import { brotliAssets } from './local/brotli-assets.ts';
import { loadEnv as loadStackEnv } from './local/config.ts';
import { proxyTo } from './local/lib/proxy.ts';
import { appShellHtml } from './web/src/app/app-shell.ts';

// Local defaults (.env.example, .env) fill in whatever the environment does not set.
const stackEnv = loadStackEnv();
for (const key of ['VITE_SUPABASE_URL', 'VITE_SUPABASE_ANON_KEY']) {
  process.env[key] ??= stackEnv[key];
}
const apiUrl = process.env.CASTLOOP_API_URL ?? stackEnv.SUPABASE_URL;

// `/api/*` is the `api` Edge Function: the spec's client calls same-origin paths. The OAuth
// redirect URI is on the site too, so the browser binding cookie set by /api reaches it. Proxied
// with the stack's own proxy (local/lib/proxy.ts), which delivers an answer given before the
// request's body was all sent (a 413) and keeps the client's connection usable after it.
const apiRoutes: [prefix: string, target: string][] = [
  ['/api', '/functions/v1/api'],
  ['/oauth/callback', '/functions/v1/oauth-callback'],
];
const apiTarget = new URL(apiUrl);
const proxyApi: Connect.NextHandleFunction = (req, res, next) => {
  const url = req.url ?? '/';
  for (const [prefix, target] of apiRoutes) {
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
      return proxyTo({ host: apiTarget.hostname, port: Number(apiTarget.port) }, `${target}${url.slice(prefix.length)}`, req, res);
    }
  }
  next();
};
const apiProxy: Plugin = {
  name: 'castloop-api-proxy',
  configureServer: (server) => void server.middlewares.use(proxyApi),
  configurePreviewServer: (server) => void server.middlewares.use(proxyApi),
};

// The first screen is in the HTML (web/src/app/app-shell.ts), so it paints before the scripts load.
const appShell: Plugin = {
  name: 'castloop-app-shell',
  transformIndexHtml(html) {
    const root = '<div id="root"></div>';
    if (!html.includes(root)) throw new Error(`index.html lacks ${root}`);
    return html.replace(root, `<div id="root">${appShellHtml}</div>`);
  },
};

const spaSources = [
  path.resolve(import.meta.dirname, 'web'),
  path.resolve(import.meta.dirname, 'supabase/functions/_shared/domain'),
  path.resolve(import.meta.dirname, 'node_modules'),
];

// Small leaf modules the dashboard shares with other screens (texts, plan and processing facts,
// two components, React Query's mutations) travel in one file: over HTTP/1.1 (6 connections a
// host) each would be its own request on the dashboard's first load. Only these modules, not
// their dependencies (React), so no other screen's first load grows by more than they weigh.
const dashboardSharedModules = {
  name: 'dashboard-shared',
  test: /web[\\/]src[\\/](components[\\/](list-state|panel)\.tsx|features[\\/](episodes|onboarding)[\\/]texts\.ts)$|_shared[\\/]domain[\\/](podcast-languages|profile-record|processing|plans)\.ts$|react-query[\\/]build[\\/]modern[\\/]useMutation\.js$|query-core[\\/]build[\\/]modern[\\/]mutationObserver\.js$/,
  includeDependenciesRecursively: false,
};

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'web'),
  envDir: path.resolve(import.meta.dirname),
  plugins: [react(), tailwindcss(), apiProxy, appShell, brotliAssets()],
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'web/src'),
      '@domain': path.resolve(import.meta.dirname, 'supabase/functions/_shared/domain'),
    },
  },
  server: {
    // Only what the SPA is built from: never the stack's settings, secrets or demo passwords.
    fs: { strict: true, allow: spaSources, deny: ['.env', '.env.*', '*.{crt,pem,key}'] },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: { groups: [dashboardSharedModules] } } },
  },
});
