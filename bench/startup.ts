// How long `npm start` takes to bring every part up on a warm install, and the stack's peak memory.
// Budget (issue: Foundation): under 20 s and under 1.5 GB. Runs on its own ports and data.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../local/config.ts';
import { mib, samplePeak, treeRssBytes } from './lib/process-tree.ts';

const env = { ...process.env, SUPABASE_API_PORT: '28321', SUPABASE_DB_PORT: '28322', MAILBOX_PORT: '28324', SMTP_PORT: '28325', POSTGREST_PORT: '28327', FUNCTIONS_PORT: '28328', SANDBOX_PORT: '28330', WEB_PORT: '28000', CASTLOOP_DATA_DIR: '.local-data/bench-startup' };

async function run(label: string, args: string[]): Promise<{ seconds: number; peak: number; settled: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'local', 'start.ts'), ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const sampler = samplePeak(child.pid!);
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
  const settled = treeRssBytes(child.pid!);
  const peak = sampler.stop();
  child.kill('SIGINT');
  await new Promise((resolve) => child.on('exit', resolve));
  return { seconds, peak, settled };
}

await run('first (fresh data, warms caches)', ['--reset']);
const warm = await run('warm', []);
console.log(`npm start to all health checks green (warm): ${warm.seconds.toFixed(1)} s (budget 20 s)`);
console.log(`peak memory of the whole stack: ${mib(warm.peak)} (settled ${mib(warm.settled)}; budget 1536 MiB)`);
