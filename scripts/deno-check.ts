// Type-checks every Edge Function as `supabase functions deploy` bundles it: each with its own
// deno.json import map and deno.lock (frozen, so a map that drifts from its lock fails), one
// `deno check` per function, in parallel. Then the local functions host, with the union of them
// that it runs every function with. `--update-locks` rewrites the locks after a deno.json change.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, repoRoot } from '../local/config.ts';
import { denoBinary, deployedFunctions, writeHostDenoConfig } from '../local/functions/functions.ts';

const run = promisify(execFile);
const config = loadConfig('test');
const updateLocks = process.argv.includes('--update-locks');
const env = {
  ...process.env,
  DENO_DIR: config.env.DENO_DIR ?? path.join(repoRoot, 'node_modules', '.cache', 'deno'),
  DENO_NO_UPDATE_CHECK: '1',
  NO_COLOR: '1',
};

async function check(label: string, args: string[]): Promise<string | null> {
  try {
    await run(denoBinary(), args, { env, cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    return null;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${label}:\n${stdout}${stderr}`.replace(/\nStack backtrace:[\s\S]*$/, '');
  }
}

// Per function, as deploy bundles it: its own config, and the deno.lock Deno finds beside it.
// `deno install --entrypoint` resolves the whole runtime graph against the lock (`deno check`
// alone resolves only what the types need: a package with separate @types would be missed).
async function checkFunction(fn: { name: string; entry: string; config: string }): Promise<string | null> {
  const own = [`--frozen=${!updateLocks}`, `--config=${fn.config}`];
  return (
    (await check(fn.name, ['install', '--quiet', ...own, '--entrypoint', fn.entry])) ??
    (await check(fn.name, ['check', ...own, fn.entry]))
  );
}

const functions = await deployedFunctions();
const failures = (await Promise.all(functions.map(checkFunction))).filter((f) => f !== null);

if (failures.length === 0) {
  const workDir = path.join(config.dataDir, '..', 'deno-check');
  await mkdir(workDir, { recursive: true });
  const hostConfig = path.join(workDir, 'deno.json');
  await writeHostDenoConfig(hostConfig);
  const host = path.join(repoRoot, 'local', 'functions', 'deno-host.ts');
  const failure = await check('local functions host', [
    'check',
    `--config=${hostConfig}`,
    host,
    ...functions.map((fn) => fn.entry),
  ]);
  if (failure) failures.push(failure);
}
for (const failure of failures) console.error(failure);
if (failures.length > 0) {
  console.error(`deno check failed (after changing a deno.json: npx tsx scripts/deno-check.ts --update-locks)`);
  process.exit(1);
}
console.log(
  `deno check: ${functions.map((fn) => fn.name).join(', ')} each with its own deno.json and deno.lock, and the local host: OK`,
);
