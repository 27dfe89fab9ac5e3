// The processing worker: a pg-boss queue in the project's database, fed from
// public.episode_processing, worked by this process (any number of them, on any machines).
//
// Why pg-boss (docs/decisions.md): jobs are claimed with SKIP LOCKED, so several workers share
// the queue without taking the same job; a job is only done when its handler returns, so
// delivery is at least once; and with heartbeatSeconds a worker that dies (SIGKILL, lost machine)
// stops heart-beating and its job is retried on another worker within about a minute, not hours.
import pg from 'pg';
import { PgBoss, type Job } from 'pg-boss';
import type { WorkerConfig } from './config.ts';
import { databaseTokenSource, type AccessTokenSource } from './access-token.ts';
import { startHealthServer, type HealthState } from './health.ts';
import { postDueClips } from './posting.ts';
import { processSubmission, type JobContext } from './process-submission.ts';
import { pinQueueSearchPath, QUEUE_SCHEMA } from './queue-search-path.ts';
import { ProcessingStore } from './store.ts';

const QUEUE = 'episode-processing';
/** Jobs whose every attempt failed, including attempts lost with their worker. */
const GAVE_UP_QUEUE = 'episode-processing-gave-up';
const NOTIFY_CHANNEL = 'episode_processing';
/** Past the plan's time limit, so the handler's own limit (with its reason) always fires first. */
const EXPIRY_MARGIN_SECONDS = 600;

interface ProcessingJobData {
  processingId: string;
}

interface RunningWorker {
  stop(): Promise<void>;
}

function isPermanent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;
}

export async function startWorker(
  config: WorkerConfig,
  log: (line: string) => void,
  tokens?: AccessTokenSource,
): Promise<RunningWorker> {
  const db = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  // A dropped connection (database restart) is replaced on the next query; it must not end the process.
  db.on('error', (error) => log(`database: ${error.message}`));
  const store = new ProcessingStore(db);
  const ctx: JobContext = { config, db, store, tokens: tokens ?? databaseTokenSource(db, config.tokenKeyring, config.oauthClients), log };

  const boss = new PgBoss({
    connectionString: config.databaseUrl,
    schema: QUEUE_SCHEMA,
    max: 4,
    superviseIntervalSeconds: config.superviseSeconds,
    monitorIntervalSeconds: config.superviseSeconds,
    instanceName: config.workerName,
  });
  boss.on('error', (error: Error) => log(`queue error: ${error.message}`));
  await boss.start();
  // After pg-boss has installed or migrated its schema (see queue-search-path.ts).
  const pinned = await pinQueueSearchPath(db);
  if (pinned) log(`pinned search_path on ${pinned} queue function(s)`);
  await boss.createQueue(GAVE_UP_QUEUE, { retryLimit: 5 });
  await boss.createQueue(QUEUE, {
    deadLetter: GAVE_UP_QUEUE,
    heartbeatSeconds: config.heartbeatSeconds,
    // The heartbeat, not this, detects dead workers; each job carries its plan's bound (feed).
    expireInSeconds: 6 * 3600,
    retryLimit: config.retryLimit,
    retryDelay: config.retryDelaySeconds,
    retryBackoff: true,
  });
  // createQueue keeps an existing queue's settings; these follow the configuration.
  await boss.updateQueue(QUEUE, {
    deadLetter: GAVE_UP_QUEUE,
    heartbeatSeconds: config.heartbeatSeconds,
    retryLimit: config.retryLimit,
    retryDelay: config.retryDelaySeconds,
  });

  const health: HealthState = { lastDatabaseAt: Date.now(), stopping: false };

  // Feeder: queued rows become jobs. The job id is the row id, so a row is enqueued once even
  // when two workers feed at the same moment. Fair turns between subscribers come from pg-boss:
  // each job is in its subscriber's group (at most jobsPerSubscriber of a group run at once, on
  // every worker together), and its priority goes down by one for each job of the same
  // subscriber already waiting or running, so a subscriber's second episode waits behind
  // everyone else's first (pg-boss takes the highest priority, then the oldest).
  let feeding = false;
  const feed = async () => {
    if (feeding) return;
    feeding = true;
    const client = await db.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string; user_id: string | null; time_limit_seconds: number; enqueued_before: number }>(
        `select p.id, p.user_id, lim.processing_time_limit_seconds as time_limit_seconds,
                (select count(*)::int from public.episode_processing q
                  where q.user_id = p.user_id and q.enqueued_at is not null and q.status in ('queued', 'processing')) as enqueued_before
           from public.episode_processing p
           left join lateral private.processing_limits(p.user_id) lim on true
          where p.enqueued_at is null and p.status = 'queued'
          order by p.created_at limit 50 for update of p skip locked`,
      );
      const inThisBatch = new Map<string | null, number>();
      for (const row of rows) {
        const ahead = row.enqueued_before + (inThisBatch.get(row.user_id) ?? 0);
        inThisBatch.set(row.user_id, (inThisBatch.get(row.user_id) ?? 0) + 1);
        await boss.send(QUEUE, { processingId: row.id }, {
          id: row.id,
          ...(row.user_id ? { group: { id: row.user_id } } : {}),
          priority: -ahead,
          // pg-boss's own bound sits past the plan's time limit, which the handler enforces.
          expireInSeconds: row.time_limit_seconds + EXPIRY_MARGIN_SECONDS,
          db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
        });
        await client.query('update public.episode_processing set enqueued_at = now() where id = $1', [row.id]);
      }
      await client.query('commit');
      health.lastDatabaseAt = Date.now();
      if (rows.length) log(`queued ${rows.length} submission(s)`);
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

  let posting = false;
  const postTimer = setInterval(() => {
    if (posting) return;
    posting = true;
    postDueClips(config, db, ctx.tokens, log)
      .then((n) => n && log(`posted ${n} clip(s)`))
      .catch((error: Error) => log(`posting failed: ${error.message}`))
      .finally(() => (posting = false));
  }, config.feedIntervalMs * 2);

  await boss.work<ProcessingJobData>(
    QUEUE,
    { batchSize: 1, localConcurrency: config.concurrency, groupConcurrency: config.jobsPerSubscriber, pollingIntervalSeconds: 1 },
    async ([job]: Job<ProcessingJobData>[]) => {
      const { processingId } = job.data;
      const began = Date.now();
      log(`processing ${processingId} (attempt ${job.retryCount + 1})`);
      try {
        await processSubmission(ctx, processingId, job.signal);
        log(`processed ${processingId} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      } catch (error) {
        const reason = (error as Error).message;
        if (job.signal.aborted) throw error;
        if (isPermanent(error) || job.retryCount >= config.retryLimit) {
          // Given up: recorded for the subscriber and the admins; the job itself completes.
          log(`failed ${processingId}: ${reason}`);
          await store.failed(processingId, reason);
          return;
        }
        log(`attempt failed for ${processingId}, will retry: ${reason}`);
        await store.attemptFailed(processingId, reason);
        throw error;
      }
    },
  );
  // A submission whose last attempt died with its worker never reached the handler's own
  // give-up: pg-boss moves the job here and the row is marked failed.
  await boss.work<ProcessingJobData>(GAVE_UP_QUEUE, { pollingIntervalSeconds: 5 }, async ([job]: Job<ProcessingJobData>[]) => {
    const row = await store.load(job.data.processingId);
    if (row && (row.status === 'queued' || row.status === 'processing')) {
      log(`gave up on ${job.data.processingId}`);
      await store.failed(job.data.processingId, 'Processing stopped repeatedly before it could finish. Please submit the episode again or contact support.');
    }
  });
  // Unhealthy once the feeder has missed the database for a few rounds (and at least 30 s).
  const healthServer =
    config.healthPort === null ? null : await startHealthServer(config.healthPort, config.workerName, Math.max(30_000, 3 * config.feedIntervalMs), health);
  log(`worker ready (${config.workerName})${healthServer ? `, health on port ${config.healthPort}` : ''}`);

  return {
    async stop() {
      stopped = true;
      health.stopping = true;
      clearInterval(feedTimer);
      clearInterval(postTimer);
      await boss.stop({ graceful: true, timeout: 30_000 });
      await listener?.end().catch(() => {});
      await db.end();
      healthServer?.close();
    },
  };
}
