// Outbox delivery to the automation receiver (the sandbox's): latency from submitting an
// episode to the receiver holding it when the worker runs right after, and deliveries per
// second with two runners draining a backlog together (each delivered exactly once).
// On hosted Supabase the worker runs every minute, so add up to 60 s to the latency.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27200) with a data directory of its own.
//   npx tsx bench/episode-delivery.ts
import fs from 'node:fs/promises';
import pg from 'pg';
import { median, runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';

const LATENCY_ROUNDS = 10;
const BACKLOG = Number(process.env.BENCH_DELIVERY_BACKLOG ?? 400);


export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27200, 'episode-delivery');

  const stack = await startStack(config, { reset: true, web: 'none' });
  try {
    const { readySubmitter, runDeliveries, submitEpisode, uploadEpisodeFile, receivedFor, setActiveAutomation } = await import('../tests/support/episodes.ts');
    // The outbox posts only submissions the webhook automation takes.
    await setActiveAutomation('webhook');
    const user = await readySubmitter({ tier: 'enterprise' });

    const latencies: number[] = [];
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const file = await uploadEpisodeFile(user, 100_000);
      const began = performance.now();
      const submitted = await submitEpisode(user, [file.path]);
      if (submitted.status !== 201) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
      const run = await runDeliveries();
      if (run.body.delivered < 1) throw new Error(`nothing delivered: ${JSON.stringify(run.body)}`);
      latencies.push(performance.now() - began);
      if ((await receivedFor(submitted.body.episode.submissionLogId)).length !== 1) throw new Error('the receiver does not hold the delivery');
    }

    const file = await uploadEpisodeFile(user, 10_000);
    const db = new pg.Client({ connectionString: config.urls.db });
    await db.connect();
    const { rows } = await db.query(
      `with logs as (
         insert into public.submission_logs (user_id, user_email, object_storage_files, submission_parameters)
         select $1::uuid, $2, array[$3], '{}'::jsonb from generate_series(1, $4::int)
         returning id)
       insert into public.webhook_deliveries (submission_log_id, payload)
       select id, jsonb_build_object('event', 'episode.submitted', 'submissionLogId', id, 'userId', $1::text, 'userEmail', $2::text,
                                     'objectStorageFiles', jsonb_build_array($3::text), 'episodeData', '{}'::jsonb)
         from logs
       returning submission_log_id`,
      [user.id, user.email, file.path, BACKLOG],
    );
    await db.end();
    const logIds = rows.map((row) => row.submission_log_id as string);

    const runner = async () => {
      let delivered = 0;
      for (;;) {
        const run = await runDeliveries({ limit: 20 });
        if (run.status !== 200) throw new Error(`run answered ${run.status}`);
        delivered += run.body.delivered;
        if (run.body.claimed === 0) return delivered;
      }
    };
    const began = performance.now();
    const [a, b] = await Promise.all([runner(), runner()]);
    const seconds = (performance.now() - began) / 1000;

    const res = await fetch(`${config.urls.sandbox}/_sandbox/automation/deliveries`);
    const { deliveries } = (await res.json()) as { deliveries: Array<{ submissionLogId: string; outcome: string }> };
    const wanted = new Set(logIds);
    const accepted = deliveries.filter((d) => wanted.has(d.submissionLogId) && d.outcome === 'accepted');
    const distinct = new Set(accepted.map((d) => d.submissionLogId)).size;

    console.log(`delivery latency, submit -> receiver (worker run right after the submit), median of ${LATENCY_ROUNDS}: ${median(latencies).toFixed(0)} ms (min ${Math.min(...latencies).toFixed(0)}, max ${Math.max(...latencies).toFixed(0)})`);
    console.log(`two runners draining ${BACKLOG} deliveries: ${seconds.toFixed(2)} s, ${(BACKLOG / seconds).toFixed(0)} deliveries/s (runner A ${a}, runner B ${b})`);
    console.log(`  receiver accepted ${accepted.length} deliveries for ${distinct} distinct submissions (exactly once: ${accepted.length === BACKLOG && distinct === BACKLOG})`);
    return [
      { bench: 'delivery', figure: 'submit -> automation receiver (worker run right after)', value: median(latencies), unit: 'ms', detail: `median of ${LATENCY_ROUNDS}; min ${Math.min(...latencies).toFixed(0)}, max ${Math.max(...latencies).toFixed(0)}` },
      {
        bench: 'delivery',
        figure: `two runners draining ${BACKLOG} deliveries`,
        value: BACKLOG / seconds,
        unit: 'deliveries/s',
        detail: `each delivered exactly once: ${accepted.length === BACKLOG && distinct === BACKLOG}`,
        ...(accepted.length === BACKLOG && distinct === BACKLOG ? {} : { error: `receiver accepted ${accepted.length} for ${distinct} distinct of ${BACKLOG}` }),
      },
    ];
  } finally {
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
