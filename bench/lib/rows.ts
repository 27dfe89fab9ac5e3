// The figures a benchmark answers, each against its budget, and the table `npm run bench` prints.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Row {
  bench: string;
  figure: string;
  value: number;
  unit: string;
  /** The budget, and whether the value must stay at or above it (`min`) or at or below it (`max`). */
  budget?: { limit: number; kind: 'min' | 'max' };
  /** Context for a reader: the raw figures behind a ratio, ranges of rounds. */
  detail?: string;
  /** Set when the bench could not measure the figure at all. */
  error?: string;
}

export type Verdict = 'pass' | 'FAIL' | 'info';

export function verdictOf(row: Row): Verdict {
  if (row.error) return 'FAIL';
  if (!row.budget) return 'info';
  const { limit, kind } = row.budget;
  return (kind === 'min' ? row.value >= limit : row.value <= limit) ? 'pass' : 'FAIL';
}

const round = (value: number) => (Number.isInteger(value) ? String(value) : Math.abs(value) >= 1000 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2));

export function formatTable(rows: Row[]): string {
  const cells = rows.map((row) => [
    row.bench,
    row.figure,
    row.error ? 'error' : `${round(row.value)} ${row.unit}`.trim(),
    row.budget ? `${row.budget.kind === 'min' ? '>=' : '<='} ${row.budget.limit} ${row.unit}`.trim() : '',
    verdictOf(row),
    row.error ?? row.detail ?? '',
  ]);
  const header = ['bench', 'figure', 'value', 'budget', 'verdict', 'detail'];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => (i === 5 ? 0 : cell[i].length))));
  const line = (cell: string[]) => cell.map((text, i) => (i === 5 ? text : text.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

/**
 * Runs `bench` when its file is the script node started (`npx tsx bench/x.ts`): prints its table,
 * or, under `npm run bench`, hands the rows to bench/run.ts through BENCH_ROWS_FILE. A bench that
 * throws prints why and answers one FAIL row with that reason (the table shows it), exiting 1.
 */
export async function runAlone(moduleUrl: string, bench: () => Promise<Row[]>): Promise<void> {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  let rows: Row[];
  try {
    rows = await bench();
  } catch (error) {
    const name = path.basename(fileURLToPath(moduleUrl), '.ts');
    console.error(`bench ${name} failed:`, error);
    rows = [{ bench: name, figure: 'the whole bench', value: 0, unit: '', error: failureReason(error) }];
    process.exitCode = 1;
  }
  if (process.env.BENCH_ROWS_FILE) writeFileSync(process.env.BENCH_ROWS_FILE, JSON.stringify(rows));
  else console.log(`\n${formatTable(rows)}`);
}

/** An error's message on one line, with its cause's when it has one. */
export function failureReason(error: unknown): string {
  const messageOf = (value: unknown) => (value instanceof Error ? value.message : String(value)).replace(/\s+/g, ' ').trim();
  const cause = error instanceof Error && error.cause !== undefined ? ` (${messageOf(error.cause)})` : '';
  return `${messageOf(error)}${cause}`.slice(0, 400);
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A figure from repeats: its median, and the spread (min to max) a reader needs to trust it. */
export function spreadOf(values: number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(values).toFixed(digits)}, ${sorted[0].toFixed(digits)}-${sorted[sorted.length - 1].toFixed(digits)} over ${values.length}`;
}
