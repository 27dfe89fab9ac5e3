// The dashboard's reads stay proportional to the subscriber's own rows: requests per second at
// 50 connections on an empty database, then with 200,000 episodes of 20,000 other users.
// Goal: every read the dashboard makes (GET /api/episodes and /api/episodes/stats, and the
// RPCs behind them) within 0.8x of its empty-database rate. The plain RLS-only select is shown
// for comparison: it walks everyone's episodes by date.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27100) with a data directory of its own.
//   npx tsx bench/episode-reads.ts
import fs from 'node:fs/promises';
import pg from 'pg';
import { cannon, type CannonRequest, type CannonResult } from './lib/cannon.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';

const OTHER_USERS = Number(process.env.BENCH_OTHER_USERS ?? 20_000);
const OTHER_EPISODES = Number(process.env.BENCH_OTHER_EPISODES ?? 200_000);

async function sql(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27100, 'episode-reads');

  const stack = await startStack(config, { reset: true, web: 'none' });
  try {
    const { createUser } = await import('../tests/support/users.ts');
    const { tokenOf } = await import('../tests/support/episodes.ts');
    const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
    const token = await tokenOf(user);
    await sql(
      config.urls.db,
      `insert into public.episodes (user_id, title, files, submitted_at)
       select $1::uuid, 'Own episode ' || i, array[$1 || '/own/' || i || '.mp4'], now() - i * interval '1 day'
         from generate_series(1, 5) i`,
      [user.id],
    );

    const rest = (path: string, method = 'GET'): CannonRequest => ({
      method,
      path: `/rest/v1/${path}`,
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    const api = (path: string): CannonRequest => ({ path: `/functions/v1/api/${path}`, headers: { authorization: `Bearer ${token}` } });
    const control = 'rest plans, trivial select (control)';
    const reads: Array<[string, CannonRequest]> = [
      [control, rest('plans?select=id&limit=1')],
      ['GET /api/episodes (dashboard)', api('episodes')],
      ['GET /api/episodes/stats (dashboard)', api('episodes/stats')],
      ['rest episodes, owner filter, limit 3', rest(`episodes?select=id,title,submitted_at&user_id=eq.${user.id}&order=submitted_at.desc&limit=3`)],
      ['rpc current_account', rest('rpc/current_account', 'POST')],
      ['rpc dashboard_stats', rest('rpc/dashboard_stats', 'POST')],
      ['rest episodes, RLS only, limit 3 (not used)', rest('episodes?select=*&order=submitted_at.desc&limit=3')],
    ];
    const measure = async () => {
      const out = new Map<string, CannonResult>();
      for (const [name, request] of reads) {
        const result = await cannon(config.urls.api, [request]);
        if (result.errors) throw new Error(`${name}: ${result.errors} errors`);
        out.set(name, result);
      }
      return out;
    };

    // The planner's own account of the two ways to read the recent episodes, as the subscriber.
    const explain = async () => {
      const client = new pg.Client({ connectionString: config.urls.db });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: user.id, role: 'authenticated' })]);
        await client.query('set local role authenticated');
        const ms = async (query: string) => {
          const { rows } = await client.query(`explain (analyze, format json) ${query}`);
          return (rows[0]['QUERY PLAN'][0]['Execution Time'] as number).toFixed(2);
        };
        const rlsOnly = await ms('select * from public.episodes order by submitted_at desc limit 3');
        const owner = await ms(`select id, title, submitted_at from public.episodes where user_id = '${user.id}' order by submitted_at desc limit 3`);
        await client.query('rollback');
        return `RLS only ${rlsOnly} ms, owner filter ${owner} ms`;
      } finally {
        await client.end();
      }
    };

    const emptyPlan = await explain();
    const empty = await measure();

    const began = Date.now();
    await sql(
      config.urls.adminDb,
      `set session_replication_role = replica;
       create temporary table others as select gen_random_uuid() as id, g as n from generate_series(1, ${OTHER_USERS}) g;
       insert into auth.users (id, email, aud, role, created_at, updated_at)
         select id, 'other-' || n || '@bench.example.com', 'authenticated', 'authenticated', now(), now() from others;
       insert into public.profiles (id, email) select id, 'other-' || n || '@bench.example.com' from others;
       insert into public.episodes (user_id, title, files, submitted_at)
         select o.id, 'Episode ' || e, array[o.id::text || '/x/' || e || '.mp4'], now() - (e % 1000) * interval '1 hour'
           from generate_series(1, ${OTHER_EPISODES}) e
           join others o on o.n = 1 + (e % ${OTHER_USERS});
       set session_replication_role = origin;
       analyze public.episodes; analyze public.profiles;`,
    );
    console.log(`seeded ${OTHER_EPISODES} episodes of ${OTHER_USERS} other users in ${((Date.now() - began) / 1000).toFixed(1)} s`);

    const seededPlan = await explain();
    const seeded = await measure();
    console.log(`execution time of the recent-episodes query (EXPLAIN ANALYZE): empty: ${emptyPlan}; seeded: ${seededPlan}`);
    console.log('requests per second at 50 connections (p50 latency): empty database -> seeded, ratio, and the ratio');
    console.log('relative to the control measured in the same phase (goal >= 0.8 for the dashboard reads)');
    const controlRatio = seeded.get(control)!.requestsPerSecond / empty.get(control)!.requestsPerSecond;
    const rows: Row[] = [];
    for (const [name] of reads) {
      const a = empty.get(name)!;
      const b = seeded.get(name)!;
      const ratio = b.requestsPerSecond / a.requestsPerSecond;
      console.log(
        `  ${name.padEnd(44)} ${a.requestsPerSecond.toFixed(0).padStart(6)} (${a.p50Ms.toFixed(1)} ms) -> ${b.requestsPerSecond.toFixed(0).padStart(6)} (${b.p50Ms.toFixed(1)} ms)  ${ratio.toFixed(2)}x  (${(ratio / controlRatio).toFixed(2)}x of control)`,
      );
      if (name.endsWith('(dashboard)'))
        rows.push({
          bench: 'episode reads',
          figure: `${name.replace(' (dashboard)', '')}: ${OTHER_EPISODES.toLocaleString('en')} others' episodes / empty`,
          value: ratio / controlRatio,
          unit: 'x',
          budget: { limit: 0.8, kind: 'min' },
          detail: `${a.requestsPerSecond.toFixed(0)} -> ${b.requestsPerSecond.toFixed(0)} req/s, relative to the control's ${controlRatio.toFixed(2)}x`,
        });
    }
    return rows;
  } finally {
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
