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

  const control = () => fetch(`${config.urls.rest}/plans?select=id&limit=1`, { headers: bearer });
  const { SignJWT, decodeJwt } = await import('jose');
  const legacyToken = await new SignJWT(decodeJwt(token))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(config.jwtSecret));
  const reads: Array<[string, () => Promise<Response>]> = [
    ['PostgREST direct, same select, legacy HS256 token', () => fetch(`${config.urls.rest}/plans?select=id&limit=1`, { headers: { authorization: `Bearer ${legacyToken}` } })],
    ['gateway: plans, trivial select', () => fetch(`${config.urls.api}/rest/v1/plans?select=id&limit=1`, { headers: { ...bearer, apikey: config.anonKey } })],
  ];
  for (const path of ['auth/user', 'episodes/stats', 'episodes', 'oauth-connections'])
    reads.push([`GET /functions/v1/api/${path}`, () => fetch(`${config.urls.api}/functions/v1/api/${path}`, { headers: bearer })]);

  // The machine is shared: each read alternates with the control in short rounds, so a change
  // in background load hits both, and the ratio compares like with like.
  const rounds = 5;
  const roundSeconds = seconds / rounds;
  const rows = [];
  for (const [name, request] of reads) {
    let controlRps = 0;
    let readRps = 0;
    const p50s: number[] = [];
    for (let round = 0; round < rounds; round++) {
      controlRps += (await load(control, { connections: 50, seconds: roundSeconds, warmupSeconds: 0.5 })).requestsPerSecond;
      const result = await load(request, { connections: 50, seconds: roundSeconds, warmupSeconds: 0.5 });
      readRps += result.requestsPerSecond;
      p50s.push(result.p50Ms);
    }
    p50s.sort((a, b) => a - b);
    rows.push({
      read: name,
      'req/s': Math.round(readRps / rounds),
      'p50 ms': Math.round(p50s[Math.floor(rounds / 2)]),
      'control req/s': Math.round(controlRps / rounds),
      ratio: Number((readRps / controlRps).toFixed(2)),
    });
  }
  console.log(`requests per second at 50 connections, ${seconds} s each in ${rounds} rounds alternating with the control:`);
  console.log('the trivial PostgREST select (plans?select=id&limit=1) sent directly to PostgREST with the same session');
  console.table(rows);
} finally {
  await stack.stop();
}
