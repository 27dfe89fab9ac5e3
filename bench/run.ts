// `npm run bench`: every benchmark in turn, each in its own process on its own ports and data,
// then one table of every figure against its budget, also written to bench/results/ as JSON.
// `npm run bench -- api-auth load` runs only the benches named. A bench that fails prints why and
// is a FAIL row with its reason; the others still run.
// `npm run bench -- --smoke [names]`: each bench once at its smallest size (SMOKE below), so a bench
// cannot break unseen (CI runs it after npm test: .ci/run); only a bench that fails fails it, not
// a figure over its budget (small sizes are not what the budgets are for).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../local/config.ts';
import { formatTable, verdictOf, type Row } from './lib/rows.ts';

const all = ['startup', 'web-bundle', 'lighthouse', 'api-auth', 'load', 'storage-upload', 'episode-reads', 'episode-delivery', 'podcast-feed', 'episode-upload-browser', 'processing', 'processing-1080p', 'review-wait', 'clip-edit', 'processing-split', 'transcription', 'writing'];

/** Each bench's smallest size: the settings its file documents, at their least. */
const SMOKE: Record<string, Record<string, string>> = {
  startup: {},
  'web-bundle': {},
  lighthouse: { LIGHTHOUSE_SCREENS: '/login', LIGHTHOUSE_RUNS: '1' },
  'api-auth': { BENCH_SECONDS: '1' },
  load: { LOAD_SECONDS: '1', LOAD_CLIENTS: '4', LOAD_SIGN_IN_CLIENTS: '1', LOAD_UPLOADS: '1', LOAD_UPLOAD_BYTES: String(1024 * 1024) },
  'storage-upload': { BENCH_UPLOAD_BYTES: String(8 * 1024 * 1024) },
  'episode-reads': { BENCH_OTHER_USERS: '10', BENCH_OTHER_EPISODES: '100' },
  'episode-delivery': { BENCH_DELIVERY_BACKLOG: '5' },
  'podcast-feed': { FEED_BENCH_EPISODES: '2', FEED_BENCH_CLIENTS: '2', FEED_BENCH_SECONDS: '1' },
  'episode-upload-browser': { BENCH_UPLOAD_BYTES: String(16 * 1024 * 1024), BENCH_UPLOAD_LINK: '0' },
  processing: { BENCH_INPUT_SECONDS: '10', BENCH_INPUT_SIZE: '320x180' },
  'processing-1080p': { BENCH_INPUT_SECONDS: '8', BENCH_REPEATS: '1' },
  'review-wait': { BENCH_WAIT_SECONDS: '20', BENCH_WAIT_WORKERS: '1', BENCH_WRITING_REQUEST_SECONDS: '0' },
  'clip-edit': { BENCH_REPEATS: '1' },
  'processing-split': { BENCH_SPLIT_SECONDS: '12', BENCH_SEGMENT_SECONDS: '6' },
  transcription: {},
  writing: { WRITING_BENCH_MINUTES: '10', WRITING_BENCH_SPEECH: '1', BENCH_REPEATS: '1' },
};

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const chosen = args.filter((arg) => arg !== '--smoke');
const unknown = chosen.filter((name) => !all.includes(name));
if (unknown.length) throw new Error(`no bench named ${unknown.join(', ')}; the benches: ${all.join(', ')}`);

/** The rows one bench answered, or one FAIL row saying why it answered none. */
function runBench(bench: string): Row[] {
  const rowsFile = path.join(os.tmpdir(), `castloop-bench-${process.pid}-${bench}.json`);
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'bench', `${bench}.ts`)], {
      stdio: 'inherit',
      cwd: repoRoot,
      env: { ...process.env, ...(smoke ? SMOKE[bench] : {}), BENCH_ROWS_FILE: rowsFile },
    });
    return JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[];
  } catch (error) {
    // A bench that failed wrote its reason as a row (lib/rows.ts runAlone); one that died did not.
    if (existsSync(rowsFile)) return JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[];
    const { status, signal } = error as { status?: number | null; signal?: string | null };
    return [{ bench, figure: 'the whole bench', value: 0, unit: '', error: `its process ended ${signal ? `by ${signal}` : `with exit ${status}`} without an answer (its output is above)` }];
  } finally {
    rmSync(rowsFile, { force: true });
  }
}

const rows: Row[] = [];
const startedAt = new Date();
const seconds: Record<string, number> = {};
for (const bench of chosen.length ? chosen : all) {
  console.log(`\n== bench/${bench}.ts${smoke ? ' (smallest size)' : ''}`);
  const began = Date.now();
  rows.push(...runBench(bench));
  seconds[bench] = (Date.now() - began) / 1000;
}

const broken = rows.filter((row) => row.error);
const failed = rows.filter((row) => verdictOf(row) === 'FAIL').length;
console.log(`\n== every figure against its budget (${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')} at the end (1, 5, 15 min); ratios are measured in the same run)\n`);
console.log(formatTable(rows));
console.log(`\n${rows.length} figures, ${failed} over budget or failed${broken.length ? ` (${broken.length} failed: ${broken.map((row) => row.bench).join(', ')})` : ''}`);
if (smoke) {
  const brokenBenches = new Set(broken.map((row) => row.bench));
  console.log(`smallest sizes, seconds per bench: ${Object.entries(seconds).map(([bench, s]) => `${bench} ${s.toFixed(0)}`).join(', ')}`);
  // A bench that broke fails (exit 1); a figure over budget at these sizes does not.
  console.log(`benches at their smallest size: ${Object.keys(seconds).length - brokenBenches.size} ran, ${brokenBenches.size} broke`);
  process.exitCode = broken.length ? 1 : 0;
} else {
  const outDir = path.join(repoRoot, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(outFile, JSON.stringify({ startedAt, cores: os.cpus().length, loadAverage: os.loadavg(), rows: rows.map((row) => ({ ...row, verdict: verdictOf(row) })) }, null, 2));
  console.log(`written to ${path.relative(repoRoot, outFile)}`);
}
