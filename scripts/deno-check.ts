// Type-checks every Edge Function (and the local functions host) with Deno, using the same
// merged import map the local host runs them with.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, repoRoot } from '../local/config.ts';
import { denoBinary, writeHostDenoConfig } from '../local/functions/functions.ts';

const config = loadConfig('test');
const functionsDir = path.join(repoRoot, 'supabase', 'functions');
const workDir = path.join(config.dataDir, '..', 'deno-check');
await mkdir(workDir, { recursive: true });
const denoConfig = path.join(workDir, 'deno.json');
await writeHostDenoConfig(denoConfig);

const entries = (await readdir(functionsDir, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => path.join(functionsDir, entry.name, 'index.ts'))
  .filter((file) => existsSync(file));
entries.push(path.join(repoRoot, 'local', 'functions', 'deno-host.ts'));

execFileSync(denoBinary(), ['check', '--no-lock', `--config=${denoConfig}`, ...entries], {
  stdio: 'inherit',
  env: { ...process.env, DENO_DIR: config.env.DENO_DIR ?? path.join(repoRoot, 'node_modules', '.cache', 'deno'), DENO_NO_UPDATE_CHECK: '1' },
});
console.log(`deno check: ${entries.length} entry points OK`);
