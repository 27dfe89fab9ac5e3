// Requests per second at 50 connections of the signed-in `/api` reads the dashboard makes, each as
// a ratio of the trivial PostgREST select measured directly on PostgREST (no gateway) in the same
// run. Goal (issue: performance budgets): every `/api` read at least 0.5x. Sessions are ES256;
// the api function verifies them from Auth's cached JWKS instead of asking Auth every time.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default 27200) with its own data directory.
//   npx tsx bench/api-auth.ts
import { load } from './lib/load.ts';

process.env.CASTLOOP_TEST_PORT_BASE ??= '27200';
process.env.CASTLOOP_DATA_DIR ??= '.local-data/bench-api-auth';
const { loadConfig } = await import('../local/config.ts');
const { startStack } = await import('../local/stack.ts');
const config = loadConfig('test');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const stack = await startStack(config, { reset: true, web: 'none', worker: false });
try {
  const { createUser } = await import('../tests/support/users.ts');
  const { tokenOf } = await import('../tests/support/episodes.ts');
  const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
  const token = await tokenOf(user);
  const bearer = { authorization: `Bearer ${token}` };

  const control = 'PostgREST direct: plans, trivial select (control)';
  const reads: Array<[string, () => Promise<Response>]> = [
    [control, () => fetch(`${config.urls.rest}/plans?select=id&limit=1`, { headers: bearer })],
    ['gateway: plans, trivial select', () => fetch(`${config.urls.api}/rest/v1/plans?select=id&limit=1`, { headers: { ...bearer, apikey: config.anonKey } })],
  ];
  for (const path of ['auth/user', 'episodes/stats', 'episodes', 'oauth-connections'])
    reads.push([`GET /functions/v1/api/${path}`, () => fetch(`${config.urls.api}/functions/v1/api/${path}`, { headers: bearer })]);

  const results = new Map<string, { requestsPerSecond: number; p50Ms: number }>();
  for (const [name, request] of reads) results.set(name, await load(request, { connections: 50, seconds }));
  const base = results.get(control)!.requestsPerSecond;
  console.log(`requests per second at 50 connections, ${seconds} s each; ratio to the control`);
  console.table(
    [...results].map(([name, r]) => ({
      read: name,
      'req/s': Math.round(r.requestsPerSecond),
      'p50 ms': Math.round(r.p50Ms),
      ratio: Number((r.requestsPerSecond / base).toFixed(2)),
    })),
  );
} finally {
  await stack.stop();
}
