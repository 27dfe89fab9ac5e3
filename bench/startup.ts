// How long `npm start` takes to bring every part up on a warm install (budget 5 s), and the
// whole stack's peak memory (budget 1 GiB), as proportional memory (PSS: shared pages divided
// among the processes mapping them); the summed resident memory, which counts Postgres's shared
// memory once per connection, is printed beside it. Runs on the ports of CASTLOOP_TEST_PORT_BASE
// (default: the first free from 27400) with a data directory of its own, removed at the end.
//   npx tsx bench/startup.ts
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../local/config.ts';
import { samplePeak, treePssBytes, treeRssBytes } from './lib/process-tree.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { benchEnvironment } from './lib/stack.ts';

async function run(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; peak: number; settled: number; settledRss: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'local', 'start.ts'), ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const sampler = samplePeak(child.pid!, 200, treePssBytes);
  let output = '';
  const ready = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Castloop is running')) resolve(true);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', () => resolve(false));
  });
  const seconds = (Date.now() - began) / 1000;
  if (!ready) throw new Error(`${label}: npm start did not come up:\n${output}`);
  // Let the dev server and functions settle, as a developer would see it a few seconds in.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const settled = treePssBytes(child.pid!);
  const settledRss = treeRssBytes(child.pid!);
  const peak = sampler.stop();
  child.kill('SIGINT');
  await new Promise((resolve) => child.on('exit', resolve));
  return { seconds, peak, settled, settledRss };
}

export async function bench(): Promise<Row[]> {
  const dataDir = await benchEnvironment(27400, 'startup');
  const { loadConfig } = await import('../local/config.ts');
  // npm start runs the dev profile: give it this bench's test-profile ports.
  const { ports } = loadConfig('test');
  const env = {
    ...process.env,
    SUPABASE_API_PORT: String(ports.gateway), SUPABASE_DB_PORT: String(ports.db), MAILBOX_PORT: String(ports.mailboxWeb), SMTP_PORT: String(ports.smtp),
    POSTGREST_PORT: String(ports.rest), FUNCTIONS_PORT: String(ports.functions), SANDBOX_PORT: String(ports.sandbox), WEB_PORT: String(ports.web),
    CASTLOOP_DATA_DIR: dataDir,
  };
  try {
    await run('first (fresh data, warms caches)', ['--reset'], env);
    const warm = await run('warm', [], env);
    const mib = (bytes: number) => bytes / 1024 / 1024;
    return [
      { bench: 'startup', figure: 'npm start to all health checks green (warm)', value: warm.seconds, unit: 's', budget: { limit: 5, kind: 'max' } },
      {
        bench: 'startup',
        figure: 'peak memory of the whole stack (proportional: shared pages counted once)',
        value: mib(warm.peak),
        unit: 'MiB',
        budget: { limit: 1024, kind: 'max' },
        detail: `settled ${mib(warm.settled).toFixed(0)} MiB; the processes' resident memory summed ${mib(warm.settledRss).toFixed(0)} MiB`,
      },
    ];
  } finally {
    rmSync(path.resolve(repoRoot, dataDir), { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
