// The JS a first visit to /login downloads (budget: 150 KB gzip, docs/decisions.md): the entry chunk and its
// static imports, plus the login route's lazy chunk and its static imports, gzip level 9.
// Budget: 150 KB (1024 bytes). Builds into a temp dir so the real dist/ is left alone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { repoRoot } from '../local/config.ts';

const BUDGET_KB = 150;
const LOGIN_PAGE = 'web/src/features/auth/routes/login-page.tsx';

const outDir = mkdtempSync(path.join(os.tmpdir(), 'castloop-web-bundle-'));
try {
  await build({
    configFile: path.join(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;

  // Manifest keys are relative to Vite's root (web/); match the login page by its absolute path.
  const root = path.join(repoRoot, 'web');
  const keyOf = (file: string) => Object.keys(manifest).find((key) => path.resolve(root, key) === path.join(repoRoot, file));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const loginKey = keyOf(LOGIN_PAGE);
  if (!entryKey || !loginKey) throw new Error(`manifest lacks ${entryKey ? LOGIN_PAGE : 'an entry'}`);

  // Static imports only: dynamic imports are fetched when another route needs them.
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  visit(loginKey);

  const sizes = [...files]
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const bytes = readFileSync(path.join(outDir, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);

  console.log(`first load of /login: ${kb(total)} JS gzip in ${sizes.length} chunks (budget ${BUDGET_KB} KB, ${((total / 1024 / BUDGET_KB) * 100).toFixed(0)}% of it)`);
  for (const s of sizes.slice(0, 6)) console.log(`  ${kb(s.gzip).padStart(9)} gzip  ${kb(s.raw).padStart(9)} raw  ${s.file}`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
