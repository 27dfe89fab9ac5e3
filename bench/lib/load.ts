// A small closed-loop HTTP load generator: `connections` workers send requests back to back for
// `seconds`; requests per second and the median latency. Any non-2xx answer aborts the run.
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
}

export async function load(request: () => Promise<Response>, options: { connections?: number; seconds?: number; warmupSeconds?: number } = {}): Promise<LoadResult> {
  const connections = options.connections ?? 50;
  const run = async (seconds: number, latencies: number[] | null) => {
    const deadline = performance.now() + seconds * 1000;
    let count = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const began = performance.now();
          const res = await request();
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`answered ${res.status}`);
          latencies?.push(performance.now() - began);
          count += 1;
        }
      }),
    );
    return count;
  };
  await run(options.warmupSeconds ?? 1, null);
  const latencies: number[] = [];
  const seconds = options.seconds ?? 5;
  const count = await run(seconds, latencies);
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: count / seconds, p50Ms: latencies[Math.floor(latencies.length / 2)] ?? 0 };
}
