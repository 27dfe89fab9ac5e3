// HTTP load with autocannon, fired from a worker thread: the benches host the gateway, Auth and
// Storage in their own process, and a load generator on that same thread would slow them down.
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
