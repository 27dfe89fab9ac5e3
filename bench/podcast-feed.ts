// The show's podcast feed as podcast apps poll it (issue 44, item 4). A show with
// FEED_BENCH_EPISODES (default 30) delivered episodes gets its feed built; then FEED_BENCH_CLIENTS
// (default 50) clients fetch the public feed address back to back for FEED_BENCH_SECONDS (default
// 20) against local Storage alone, with no CDN in front: first plain GETs, then the conditional
// GETs podcast apps send (If-None-Match: the ETag they kept, answered 304 without the body;
// checked once to answer 304 first).
// Budget: no errors, and Storage alone answers at least what 10,000 shows polled every
// FEED_BENCH_POLL_SECONDS (default 120: more often than podcast apps poll) ask for. Also
// reported: the feed's size and Cache-Control (what a CDN keeps), and one rebuild's time (a
// rebuild follows a change, never a poll).
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27700) with a data directory of its own.
//   npx tsx bench/podcast-feed.ts
import fs from 'node:fs/promises';
import { cannonMix, type CannonResult } from './lib/cannon.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';

const episodes = Number(process.env.FEED_BENCH_EPISODES ?? 30);
const clients = Number(process.env.FEED_BENCH_CLIENTS ?? 50);
const seconds = Number(process.env.FEED_BENCH_SECONDS ?? 20);
const pollSeconds = Number(process.env.FEED_BENCH_POLL_SECONDS ?? 120);
const SHOWS = 10_000;

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27700, 'podcast-feed');
  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  try {
    const { onboardedShow, deliveredEpisode, feedBuiltSince, databaseNow } = await import('../tests/support/podcast-feed.ts');
    const { callApi, tokenOf } = await import('../tests/support/episodes.ts');
    const { withDb } = await import('../tests/support/stack.ts');
    const user = await onboardedShow();
    await feedBuiltSince(user.id, new Date(0));
    for (let i = 0; i < episodes; i += 1) await deliveredEpisode(user.id, `Episode ${i + 1}`);
    const before = await databaseNow();
    await feedBuiltSince(user.id, before, 120_000);
    // One rebuild on its own: a title change, timed from the change to the feed written.
    const renamed = await databaseNow();
    await withDb((db) => db.query(`update public.profiles set podcast_title = 'Engines of Thought, renamed' where id = $1`, [user.id]));
    await feedBuiltSince(user.id, renamed, 60_000);
    const rebuild = await withDb(async (db) => Number((await db.query<{ ms: string }>('select extract(epoch from built_at - $2::timestamptz) * 1000 as ms from public.podcast_feeds where user_id = $1', [user.id, renamed])).rows[0].ms));

    const { body } = await callApi('GET', 'podcast-feed', await tokenOf(user));
    const feedUrl = new URL(body.feed.feedUrl as string);
    const first = await fetch(feedUrl);
    const bytes = (await first.arrayBuffer()).byteLength;
    const etag = first.headers.get('etag') ?? '';
    const cacheControl = first.headers.get('cache-control') ?? '';
    const path = `${feedUrl.pathname}${feedUrl.search}`;
    const unchanged = await fetch(feedUrl, { headers: { 'if-none-match': etag } });
    if (unchanged.status !== 304) throw new Error(`a conditional GET with the feed's ETag answered ${unchanged.status}, not 304`);

    const needed = Math.ceil(SHOWS / pollSeconds);
    const rows: Row[] = [];
    const figures = (result: CannonResult) => `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.requests} requests, ${result.errors} errors`;
    for (const [kind, headers] of [
      ['GET', {}],
      ['conditional GET (304)', { 'if-none-match': etag }],
    ] as const) {
      const mix = await cannonMix(feedUrl.origin, [{ kind, connections: clients, requests: [{ path, headers }] }], { seconds, warmupSeconds: 2 });
      // autocannon counts a 304 as not 2xx: the conditional run's "errors" are its 304s.
      const result = kind === 'GET' ? mix.byKind[kind] : { ...mix.byKind[kind], errors: 0 };
      console.log(`feed ${kind}, ${clients} clients ${seconds} s: ${figures(result)}`);
      rows.push({
        bench: 'podcast-feed',
        figure: `feed ${kind} from Storage alone: requests per second`,
        value: result.requestsPerSecond,
        unit: 'req/s',
        budget: { limit: needed, kind: 'min' },
        detail: `${SHOWS} shows polled every ${pollSeconds} s need ${needed.toFixed(0)} req/s without any CDN; ${figures(result)}; ${episodes} episodes, ${bytes} bytes`,
      });
      if (kind === 'GET') rows.push({ bench: 'podcast-feed', figure: 'feed GET: errors', value: result.errors, unit: '', budget: { limit: 0, kind: 'max' }, detail: figures(result) });
    }
    rows.push(
      { bench: 'podcast-feed', figure: `feed size with ${episodes} episodes`, value: bytes / 1024, unit: 'KiB', detail: `Cache-Control: ${cacheControl}; ETag ${etag}` },
      {
        bench: 'podcast-feed',
        figure: `one rebuild (profile change to feed written), ${episodes} episodes`,
        value: rebuild,
        unit: 'ms',
        budget: { limit: 10_000, kind: 'max' },
        detail: 'the database calls the builder as the change commits; rebuilds follow changes, never polls',
      },
    );
    return rows;
  } finally {
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
