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
const dashboardSharedModules = {
  name: 'dashboard-shared',
  test: /web[\\/]src[\\/](components[\\/](list-state|panel)\.tsx|features[\\/](episodes|onboarding)[\\/]texts\.ts)$|_shared[\\/]domain[\\/](podcast-languages|profile-record|processing|plans)\.ts$|_shared[\\/]database\.types\.ts$|react-query[\\/]build[\\/]modern[\\/]useMutation\.js$|query-core[\\/]build[\\/]modern[\\/]mutationObserver\.js$/,
  includeDependenciesRecursively: false,
};

export default defineConfig(({ command, mode }) => {
  // The environment Vite inlines import.meta.env from (process env over .env files), checked
  // before anything is built or served.
  resolveSpaSettings({ ...process.env, ...loadEnv(mode, envDir) }, command);
  return {
    root: path.resolve(import.meta.dirname, 'web'),
    envDir,
    plugins: [react(), tailwindcss(), appShell],
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
