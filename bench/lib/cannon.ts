// HTTP load with autocannon, fired from a worker thread: the benches host the gateway, Auth and
// Storage in their own process, and a load generator on that same thread would slow them down.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface CannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface CannonResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers, connection errors and timeouts. */
  errors: number;
  requests: number;
}

/**
 * `connections` clients send `requests` back to back (each client cycles through the list) for
 * `seconds`, after a warm-up of `warmupSeconds` that is not counted.
 */
export async function cannon(origin: string, requests: CannonRequest[], options: { connections?: number; seconds?: number; warmupSeconds?: number } = {}): Promise<CannonResult> {
  const fire = (duration: number) =>
    autocannon({
      url: origin,
      connections: options.connections ?? 50,
      duration,
      workers: 1,
      timeout: 30,
      requests: requests.map((request) => ({ method: request.method ?? 'GET', path: request.path, headers: request.headers, body: request.body })),
    } as autocannon.Options);
  if ((options.warmupSeconds ?? 1) > 0) await fire(options.warmupSeconds ?? 1);
  const result = await fire(options.seconds ?? 5);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}

/** Clients of one kind in a mix: `connections` of them, each cycling through `requests`. */
export interface CannonGroup {
  kind: string;
  connections: number;
  requests: CannonRequest[];
}

export interface MixResult {
  /** Each kind's figures, measured on its own clients. */
  byKind: Record<string, CannonResult>;
  /** Every request of the mix in one latency histogram. */
  overall: CannonResult;
}

// One autocannon instance per kind, all in one worker thread (off the stack's thread), each run
// raw (skipAggregateResult) so its latency histogram comes back whole and can be merged.
const mixWorker = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannon);
Promise.all(workerData.runs.map((run) => autocannon({ ...run, skipAggregateResult: true })))
  .then((results) => parentPort.postMessage({ results }), (error) => parentPort.postMessage({ error: String(error) }));
`;

/** An instance's own result, before aggregation (autocannon's `skipAggregateResult`). */
type RawResult = Pick<autocannon.Result, 'duration' | 'errors' | 'timeouts' | 'non2xx'> & { totalCompletedRequests: number };
// Documented in autocannon's README, missing from @types/autocannon.
const { aggregateResult } = autocannon as unknown as { aggregateResult(results: RawResult[], options: { url: string }): autocannon.Result };

function runMix(origin: string, groups: CannonGroup[], duration: number): Promise<RawResult[]> {
  const runs = groups.map((group) => ({
    url: origin,
    connections: group.connections,
    duration,
    timeout: 30,
    requests: group.requests.map((request) => ({ method: request.method ?? 'GET', path: request.path, headers: request.headers, body: request.body })),
  }));
  const worker = new Worker(mixWorker, { eval: true, workerData: { autocannon: createRequire(import.meta.url).resolve('autocannon'), runs } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { results?: RawResult[]; error?: string }) => {
      void worker.terminate();
      if (message.results) resolve(message.results);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    worker.once('error', reject);
  });
}

function figuresOf(origin: string, results: RawResult[]): CannonResult {
  const merged = aggregateResult(results, { url: origin });
  const requests = results.reduce((sum, result) => sum + result.totalCompletedRequests, 0);
  return {
    // The instances ran side by side: the longest one's time is the mix's.
    requestsPerSecond: requests / Math.max(...results.map((result) => result.duration)),
    p50Ms: merged.latency.p50,
    p99Ms: merged.latency.p99,
    errors: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    requests,
  };
}

/**
 * Every group's clients at once for `seconds` (after an uncounted warm-up of `warmupSeconds`):
 * the latency of each kind on its own, and of every request together.
 */
export async function cannonMix(origin: string, groups: CannonGroup[], options: { seconds: number; warmupSeconds: number }): Promise<MixResult> {
  if (options.warmupSeconds > 0) await runMix(origin, groups, options.warmupSeconds);
  const raw = await runMix(origin, groups, options.seconds);
  return {
    byKind: Object.fromEntries(groups.map((group, i) => [group.kind, figuresOf(origin, [raw[i]])])),
    overall: figuresOf(origin, raw),
  };
}
