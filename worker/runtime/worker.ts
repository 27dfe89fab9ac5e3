// The processing worker: a pg-boss queue in the project's database, fed from
// public.episode_processing, worked by this process (any number of them, on any machines).
//
// Why pg-boss (docs/decisions.md): jobs are claimed with SKIP LOCKED, so several workers share
// the queue without taking the same job; a job is only done when its handler returns, so
// delivery is at least once; and with heartbeatSeconds a worker that dies (SIGKILL, lost machine)
// stops heart-beating and its job is retried on another worker within about a minute, not hours.
import pg from 'pg';
import type { WorkerConfig } from '../config.ts';
import { useMediaTools } from '../media/ffmpeg.ts';
import { databaseTokenSource, type AccessTokenSource } from '../platforms/access-token.ts';
import { startFeeder } from './feeder.ts';
import { startHealthServer, type HealthState } from './health.ts';
import { runJobs } from './job-runner.ts';
import { postDueClips } from '../platforms/posting.ts';
import type { JobContext } from '../pipeline/job-context.ts';
import { startQueue } from './queue.ts';
import { ProcessingStore } from '../pipeline/store.ts';

interface RunningWorker {
  stop(): Promise<void>;
}

export async function startWorker(
  config: WorkerConfig,
  log: (line: string) => void,
  tokens?: AccessTokenSource,
): Promise<RunningWorker> {
  useMediaTools(config.media);
  const db = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  // A dropped connection (database restart) is replaced on the next query; it must not end the process.
  db.on('error', (error) => log(`database: ${error.message}`));
  const store = new ProcessingStore(db);
  const ctx: JobContext = { config, db, store, tokens: tokens ?? databaseTokenSource(db, config.tokenKeyring, config.oauthClients), log };

  const boss = await startQueue(config, db, log);
  const health: HealthState = { lastDatabaseAt: Date.now(), stopping: false };
  const feeder = await startFeeder(config, db, boss, health, log);

  let posting = false;
  const postTimer = setInterval(() => {
    if (posting) return;
    posting = true;
    postDueClips(config, db, ctx.tokens, log)
      .then((n) => n && log(`posted ${n} clip(s)`))
      .catch((error: Error) => log(`posting failed: ${error.message}`))
      .finally(() => (posting = false));
  }, config.feedIntervalMs * 2);

  await runJobs(boss, ctx);
  // Unhealthy once the feeder has missed the database for a few rounds (and at least 30 s).
  const healthServer =
    config.healthPort === null ? null : await startHealthServer(config.healthPort, config.workerName, Math.max(30_000, 3 * config.feedIntervalMs), health);
  log(`worker ready (${config.workerName})${healthServer ? `, health on port ${config.healthPort}` : ''}`);

  return {
    async stop() {
      feeder.halt();
      health.stopping = true;
      clearInterval(postTimer);
      await boss.stop({ graceful: true, timeout: 30_000 });
      await feeder.close();
      await db.end();
      healthServer?.close();
    },
  };
}
