// `npm run bench`: every benchmark in turn, each in its own process on its own ports and data,
// then one table of every figure against its budget, also written to bench/results/ as JSON.
// `npm run bench -- api-auth load` runs only the benches named.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../local/config.ts';
import { formatTable, verdictOf, type Row } from './lib/rows.ts';

const all = ['startup', 'web-bundle', 'lighthouse', 'api-auth', 'load', 'storage-upload', 'episode-reads', 'episode-delivery', 'podcast-feed', 'episode-upload-browser', 'processing', 'processing-1080p', 'processing-split', 'transcription', 'writing'];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !all.includes(name));
if (unknown.length) throw new Error(`no bench named ${unknown.join(', ')}; the benches: ${all.join(', ')}`);

const rows: Row[] = [];
const startedAt = new Date();
for (const bench of chosen.length ? chosen : all) {
  console.log(`\n== bench/${bench}.ts`);
  const rowsFile = path.join(os.tmpdir(), `castloop-bench-${process.pid}-${bench}.json`);
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'bench', `${bench}.ts`)], { stdio: 'inherit', cwd: repoRoot, env: { ...process.env, BENCH_ROWS_FILE: rowsFile } });
    rows.push(...(JSON.parse(readFileSync(rowsFile, 'utf8')) as Row[]));
  } catch (error) {
    rows.push({ bench, figure: 'the whole bench', value: 0, unit: '', error: (error as Error).message.split('\n')[0] });
  } finally {
    rmSync(rowsFile, { force: true });
  }
}

const failed = rows.filter((row) => verdictOf(row) === 'FAIL').length;
console.log(`\n== every figure against its budget (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end; ratios are measured in the same run)\n`);
console.log(formatTable(rows));
console.log(`\n${rows.length} figures, ${failed} over budget`);
const outDir = path.join(repoRoot, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(outFile, JSON.stringify({ startedAt, cores: os.cpus().length, loadAverage: os.loadavg(), rows: rows.map((row) => ({ ...row, verdict: verdictOf(row) })) }, null, 2));
console.log(`written to ${path.relative(repoRoot, outFile)}`);
