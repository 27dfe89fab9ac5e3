// The JS a first visit to a page downloads, gzip level 9: the entry chunk and its static imports
// and every other script index.html preloads, plus the page's lazy route chunk and its static
// imports, and for a signed-in visitor the Auth client (loaded on the first visit when a session
// is stored, once the page has loaded).
// Budget for /login: 150 KB (1024 bytes); /dashboard is shown beside it. Builds into a temp dir
// so the real dist/ is left alone.
//   npx tsx bench/web-bundle.ts
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { loadConfig, repoRoot } from '../local/config.ts';
import { localSpaEnv } from '../local/web.ts';
import { runAlone, type Row } from './lib/rows.ts';

const pages = [
  { route: '/login', file: 'web/src/app/routes/auth/login-page.tsx', budgetKb: 150 },
  { route: '/dashboard', file: 'web/src/app/routes/dashboard/dashboard-page.tsx', signedIn: true },
];
const authClientModule = 'node_modules/@supabase/auth-js/dist/module/index.js';

export async function bench(): Promise<Row[]> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'castloop-web-bundle-'));
  try {
    // Built against the local stack's settings, as npm test's preview build is.
    Object.assign(process.env, localSpaEnv(loadConfig('dev')));
    await build({
      configFile: path.join(repoRoot, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
    });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    // Manifest keys are relative to Vite's root (web/); match a page by its absolute path. Vite
    // resolves symbolic links (a worktree's node_modules may be one), so both sides are real paths.
    const root = path.join(repoRoot, 'web');
    const keyOf = (file: string) => Object.keys(manifest).find((key) => path.resolve(root, key) === realpathSync(path.join(repoRoot, file)));
    const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
    if (!entryKey) throw new Error('the manifest has no entry');

    return pages.map((page) => {
      const pageKey = keyOf(page.file);
      if (!pageKey) throw new Error(`the manifest lacks ${page.file}`);
      // Static imports only: dynamic imports are fetched when another route needs them.
      const files = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (files.has(chunk.file)) return;
        files.add(chunk.file);
        for (const imported of chunk.imports ?? []) visit(imported);
      };
      visit(entryKey);
      // And every script index.html fetches at startup (the chunk the entry imports once its first
      // requests are out is preloaded there: vite.config.ts).
      for (const [, file] of readFileSync(path.join(outDir, 'index.html'), 'utf8').matchAll(/"\/(assets\/[^"]+\.js)"/g)) files.add(file);
      visit(pageKey);
      if (page.signedIn) {
        const authKey = keyOf(authClientModule);
        if (!authKey) throw new Error(`the manifest lacks ${authClientModule}`);
        visit(authKey);
      }
      const sizes = [...files]
        .filter((file) => file.endsWith('.js'))
        .map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length }))
        .sort((a, b) => b.gzip - a.gzip);
      const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
      return {
        bench: 'web bundle',
        figure: `first-load JS of ${page.route}, gzip`,
        value: total / 1024,
        unit: 'KB',
        budget: page.budgetKb ? { limit: page.budgetKb, kind: 'max' as const } : undefined,
        detail: `${sizes.length} chunks; largest ${sizes.slice(0, 3).map((s) => `${path.basename(s.file)} ${(s.gzip / 1024).toFixed(1)} KB`).join(', ')}`,
      };
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
