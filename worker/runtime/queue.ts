// The pg-boss queue the worker runs on (its names and job data: pipeline/jobs.ts), started with its settings.
import type pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { WorkerConfig } from '../config.ts';
import { GAVE_UP_QUEUE, PROCESSING_QUEUE } from '../pipeline/jobs.ts';
import { pinQueueSearchPath, QUEUE_SCHEMA } from './queue-search-path.ts';


/** Starts pg-boss in the project's database and creates (or updates) both queues. */
export async function startQueue(config: WorkerConfig, db: pg.Pool, log: (line: string) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: config.databaseUrl,
    schema: QUEUE_SCHEMA,
    max: 4,
    superviseIntervalSeconds: config.superviseSeconds,
    monitorIntervalSeconds: config.superviseSeconds,
    instanceName: config.workerName,
    // A job queued (a submission, its pieces, its join) wakes an idle worker at once (NOTIFY);
    // polling stays the fallback (retries, a connection without LISTEN, e.g. a transaction pooler).
    useListenNotify: true,
  });
  boss.on('error', (error: Error) => log(`queue error: ${error.message}`));
  await boss.start();
  // After pg-boss has installed or migrated its schema (see queue-search-path.ts).
  const pinned = await pinQueueSearchPath(db);
  if (pinned) log(`pinned search_path on ${pinned} queue function(s)`);
  await boss.createQueue(GAVE_UP_QUEUE, { retryLimit: 5 });
  await boss.createQueue(PROCESSING_QUEUE, {
    deadLetter: GAVE_UP_QUEUE,
    heartbeatSeconds: config.heartbeatSeconds,
    // The heartbeat, not this, detects dead workers; each job carries its plan's bound (feeder.ts).
    expireInSeconds: 6 * 3600,
    retryLimit: config.retryLimit,
    retryDelay: config.retryDelaySeconds,
    retryBackoff: true,
    notify: true,
  });
  // createQueue keeps an existing queue's settings; these follow the configuration.
  await boss.updateQueue(PROCESSING_QUEUE, {
    deadLetter: GAVE_UP_QUEUE,
    heartbeatSeconds: config.heartbeatSeconds,
    retryLimit: config.retryLimit,
    retryDelay: config.retryDelaySeconds,
    notify: true,
  });
  return boss;
}
