import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { appShellHtml } from './web/src/app/app-shell.ts';
import { resolveSpaSettings } from './web/build-settings.ts';

const envDir = path.resolve(import.meta.dirname);

// The first screen is in the HTML (web/src/app/app-shell.ts), so it paints before the scripts load.
const appShell: Plugin = {
  name: 'castloop-app-shell',
  transformIndexHtml(html) {
    const root = '<div id="root"></div>';
    if (!html.includes(root)) throw new Error(`index.html lacks ${root}`);
    return html.replace(root, `<div id="root">${appShellHtml}</div>`);
  },
};

// How the page starts (issue 28 item 5). The scripts are fetched at once but at low priority, so
// on a slow link the stylesheet (all the app shell needs to paint) is not slowed by them. The
// entry runs after the first frame (the app shell) is on screen, not before it: a device whose
// download is fast and CPU slow (or a repeat visit, the scripts cached) would otherwise evaluate
// React and render before it paints anything; a hidden tab (no frames) starts it at once. The
// chunk main.tsx imports once its first requests are out (React DOM and the app) is fetched
// beside the entry, not after it.
const renderModule = /[\\/]web[\\/]src[\\/]app[\\/]render\.tsx$/;
const startAfterFirstPaint: Plugin = {
  name: 'castloop-start-after-first-paint',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { chunk, bundle }) {
      if (!chunk || !bundle) throw new Error('index.html has no entry chunk');
      const src = `/${chunk.fileName}`;
      const tag = `<script type="module" crossorigin src="${src}"></script>`;
      if (!html.includes(tag)) throw new Error(`index.html lacks ${tag}`);
      const render = chunk.dynamicImports
        .map((file) => bundle[file])
        .find((imported) => imported?.type === 'chunk' && renderModule.test(imported.facadeModuleId ?? ''));
      if (render?.type !== 'chunk') throw new Error('the entry does not import app/render.tsx');
      const renderFiles = new Set<string>();
      const visit = (file: string) => {
        const imported = bundle[file];
        if (renderFiles.has(file) || imported?.type !== 'chunk') return;
        renderFiles.add(file);
        imported.imports.forEach(visit);
      };
      visit(render.fileName);
      const preloads = [chunk.fileName, ...[...renderFiles].filter((file) => file !== chunk.fileName && !html.includes(`href="/${file}"`))]
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
        .join('\n    ');
      const start =
        `const start=()=>import(${JSON.stringify(src)});` +
        `document.visibilityState==='hidden'?start():requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(start)))`;
      return html
        .replace(tag, `${preloads}\n    <script type="module">${start}</script>`)
        .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
    },
  },
};

const spaSources = [
  path.resolve(import.meta.dirname, 'web'),
  path.resolve(import.meta.dirname, 'supabase/functions/_shared/domain'),
  path.resolve(import.meta.dirname, 'node_modules'),
];

// Small leaf modules the dashboard shares with other screens (texts, plan and processing facts,
// the database's enums, two components, React Query's mutations) travel in one file: over
// HTTP/1.1 (6 connections a host) each would be its own request on the dashboard's first load.
// Only these modules, not their dependencies (React), so no other screen's first load grows by
// more than they weigh. The enums stay out of a file of their own (every first load asked for it).
// So do the small modules the app's frame (app/render.tsx, on every first load) shares with the
// screens: the toasts, the spinner, the failure notice (its error boundaries'), texts and
// constants.
const dashboardSharedModules = {
  name: 'dashboard-shared',
  test: /web[\\/]src[\\/](components[\\/](alert|list-state|panel|spinner)\.tsx|components[\\/]texts\.ts|app[\\/](routes[\\/]dashboard[\\/])?texts\.ts|lib[\\/](toast|delays|local-storage-keys|external-links)\.ts|features[\\/](episodes|onboarding)[\\/]texts\.ts)$|react-hot-toast[\\/]|goober[\\/]|_shared[\\/]domain[\\/](podcast-languages|profile-record|processing|plans)\.ts$|_shared[\\/]database\.types\.ts$|react-query[\\/]build[\\/]modern[\\/]useMutation\.js$|query-core[\\/]build[\\/]modern[\\/]mutationObserver\.js$/,
  includeDependenciesRecursively: false,
};

export default defineConfig(({ command, mode }) => {
  // The environment Vite inlines import.meta.env from (process env over .env files), checked
  // before anything is built or served.
  resolveSpaSettings({ ...process.env, ...loadEnv(mode, envDir) }, command);
  return {
    root: path.resolve(import.meta.dirname, 'web'),
    envDir,
    plugins: [react(), tailwindcss(), appShell, startAfterFirstPaint],
    resolve: {
      alias: {
        '@': path.resolve(import.meta.dirname, 'web/src'),
        '@domain': path.resolve(import.meta.dirname, 'supabase/functions/_shared/domain'),
      },
    },
    // `/api` and `/oauth/callback` are the local stack's to route (local/web.ts); in production
    // the static host sends them to the functions (docs/deploy.md).
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
  };
});
