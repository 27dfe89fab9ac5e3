// Requests per second at 50 connections of what the dashboard reads, each as a ratio of the
// trivial PostgREST select measured directly on PostgREST (no gateway) in the same run. Budgets
// (issue: performance budgets): the same select through the gateway 0.9, the dashboard's RPCs
// through the gateway 0.8, each `/api` function the dashboard calls 0.5. Sessions are ES256;
// everything verifies them from Auth's JWKS without asking Auth.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27200) with a data directory of its own.
//   npx tsx bench/api-auth.ts
import { cannon, type CannonRequest } from './lib/cannon.ts';
import { median, runAlone, type Row } from './lib/rows.ts';
import { benchStack, signedInSubscriber } from './lib/stack.ts';

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27200, 'api-auth');
  const seconds = Number(process.env.BENCH_SECONDS ?? 9);

  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  try {
    const { bearer } = await signedInSubscriber();
    const viaGateway = { ...bearer, apikey: config.anonKey };
    const rpc = (name: string): CannonRequest => ({ method: 'POST', path: `/rest/v1/rpc/${name}`, headers: { ...viaGateway, 'content-type': 'application/json' }, body: '{}' });

    const control = { origin: config.urls.rest, request: { path: '/plans?select=id&limit=1', headers: bearer } };
    const reads: Array<{ figure: string; budget: number; origin: string; request: CannonRequest }> = [
      { figure: 'gateway: the same select', budget: 0.9, origin: config.urls.api, request: { path: '/rest/v1/plans?select=id&limit=1', headers: viaGateway } },
      { figure: 'gateway: rpc current_account', budget: 0.8, origin: config.urls.api, request: rpc('current_account') },
      { figure: 'gateway: rpc dashboard_stats', budget: 0.8, origin: config.urls.api, request: rpc('dashboard_stats') },
    ];
    for (const path of ['auth/user', 'episodes', 'episodes/stats', 'oauth-connections'])
      reads.push({ figure: `GET /functions/v1/api/${path}`, budget: 0.5, origin: config.urls.api, request: { path: `/functions/v1/api/${path}`, headers: bearer } });

    // The machine may be shared: each read alternates with the control in short rounds, so a
    // change in background load hits both, and the ratio compares like with like.
    const rounds = 3;
    const roundSeconds = seconds / rounds;
    const rows: Row[] = [];
    for (const read of reads) {
      let controlRps = 0;
      let readRps = 0;
      const ratios: number[] = [];
      const p50s: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const base = await cannon(control.origin, [control.request], { seconds: roundSeconds, warmupSeconds: 0.5 });
        const result = await cannon(read.origin, [read.request], { seconds: roundSeconds, warmupSeconds: 0.5 });
        if (base.errors || result.errors) throw new Error(`${read.figure}: ${result.errors} errors (control ${base.errors})`);
        controlRps += base.requestsPerSecond;
        readRps += result.requestsPerSecond;
        ratios.push(result.requestsPerSecond / base.requestsPerSecond);
        p50s.push(result.p50Ms);
      }
      rows.push({
        bench: 'rps, 50 connections',
        figure: `${read.figure} / PostgREST direct`,
        value: readRps / controlRps,
        unit: 'x',
        budget: { limit: read.budget, kind: 'min' },
        detail: `${Math.round(readRps / rounds)} vs ${Math.round(controlRps / rounds)} req/s, p50 ${median(p50s)} ms; rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
      });
    }
    return rows;
  } finally {
    await stack.stop();
  }
}

await runAlone(import.meta.url, bench);
