// The feeder: queued public.episode_processing rows become queue jobs, on a notification or a timer
// (private.processing_to_enqueue and private.processing_enqueued hold the row's side).
import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { WorkerConfig } from '../config.ts';
import type { HealthState } from './health.ts';
import { PROCESSING_QUEUE, type RequestJobData } from '../pipeline/jobs.ts';
import { EXPIRY_MARGIN_SECONDS } from '../pipeline/plan.ts';

const NOTIFY_CHANNEL = 'episode_processing';

export interface RunningFeeder {
  /** Stops the timer (and with it reconnecting the listener); the listener stays until close. */
  halt(): void;
  close(): Promise<void>;
}

/**
 * The job id is the row id, so a row is enqueued once even when two workers feed at the same
 * moment. Fair turns between subscribers come from pg-boss: each job is in its subscriber's group
 * (at most jobsPerSubscriber of a group run at once, on every worker together), and its priority
 * goes down by one for each job of the same subscriber already waiting or running, so a
 * subscriber's second episode waits behind everyone else's first (pg-boss takes the highest
 * priority, then the oldest).
 */
/** The subscriber's edits go before pieces and joins (plan.ts PRIORITY): they wait on the screen for them. */
const EDIT_PRIORITY = 5;
/** An edit renders a few clips at most: bounded like one piece. */
const EDIT_EXPIRY_SECONDS = 3600;

/**
 * The subscriber's edits waiting for the worker (private.processing_requests): each a job of its
 * own, in the subscriber's group, in the caller's transaction. Answers how many were queued.
 */
async function feedRequests(client: pg.PoolClient, boss: PgBoss): Promise<number> {
  const { rows } = await client.query<{ id: string; episode_processing_id: string; kind: RequestJobData['kind']; clip_ids: string[]; user_id: string | null }>(
    `select id, episode_processing_id, kind, clip_ids, user_id from private.requests_to_enqueue(20)`,
  );
  for (const row of rows) {
    const data: RequestJobData = { processingId: row.episode_processing_id, requestId: row.id, kind: row.kind, clipIds: row.clip_ids };
    await boss.send(PROCESSING_QUEUE, data, {
      id: row.id,
      ...(row.user_id ? { group: { id: row.user_id } } : {}),
      priority: EDIT_PRIORITY,
      expireInSeconds: EDIT_EXPIRY_SECONDS,
      db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
    });
    await client.query('select private.request_enqueued($1)', [row.id]);
  }
  return rows.length;
}

export async function startFeeder(
  config: WorkerConfig,
  db: pg.Pool,
  boss: PgBoss,
  health: HealthState,
  log: (line: string) => void,
): Promise<RunningFeeder> {
  let feeding = false;
  const feed = async () => {
    if (feeding) return;
    feeding = true;
    const client = await db.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string; user_id: string | null; time_limit_seconds: number; enqueued_before: number }>(
        `select id, user_id, time_limit_seconds, enqueued_before from private.processing_to_enqueue(50)`,
      );
      const inThisBatch = new Map<string | null, number>();
      for (const row of rows) {
        const ahead = row.enqueued_before + (inThisBatch.get(row.user_id) ?? 0);
        inThisBatch.set(row.user_id, (inThisBatch.get(row.user_id) ?? 0) + 1);
        await boss.send(PROCESSING_QUEUE, { processingId: row.id }, {
          id: row.id,
          ...(row.user_id ? { group: { id: row.user_id } } : {}),
          priority: -ahead,
          // pg-boss's own bound sits past the plan's time limit, which the handler enforces.
          expireInSeconds: row.time_limit_seconds + EXPIRY_MARGIN_SECONDS,
          db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
        });
        await client.query('select private.processing_enqueued($1)', [row.id]);
      }
      const requests = await feedRequests(client, boss);
      await client.query('commit');
      health.lastDatabaseAt = Date.now();
      if (rows.length) log(`queued ${rows.length} submission(s)`);
      if (requests) log(`queued ${requests} edit(s) to process`);
    } catch (error) {
      await client.query('rollback').catch(() => {});
      log(`feeding the queue failed: ${(error as Error).message}`);
    } finally {
      client.release();
      feeding = false;
    }
  };

  // New submissions wake the feeder at once; when the listener is down, polling still feeds.
  let listener: pg.Client | null = null;
  let connecting = false;
  let stopped = false;
  const listen = async () => {
    if (connecting) return;
    connecting = true;
    const client = new pg.Client({ connectionString: config.databaseUrl });
    client.on('notification', () => void feed());
    client.on('error', (error) => {
      log(`listener: ${error.message}`);
      if (listener === client) listener = null;
      void client.end().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`listen ${NOTIFY_CHANNEL}`);
      listener = client;
    } catch (error) {
      log(`listener: ${(error as Error).message}`);
      void client.end().catch(() => {});
    } finally {
      connecting = false;
    }
  };
  await listen();
  const feedTimer = setInterval(() => {
    if (!listener && !stopped) void listen();
    void feed();
  }, config.feedIntervalMs);
  await feed();

  return {
    halt() {
      stopped = true;
      clearInterval(feedTimer);
    },
    async close() {
      await listener?.end().catch(() => {});
    },
  };
}
