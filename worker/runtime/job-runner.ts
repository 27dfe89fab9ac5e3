// The job runner: the queue's handlers that process a submission (its planning job, its pieces and
// its join), the subscriber's edits after delivery (rework.ts), and record the ones given up on.
import type { Job, PgBoss } from 'pg-boss';
import { failsForGood, isPermanent } from '../failure.ts';
import type { JobContext } from '../pipeline/job-context.ts';
import { GAVE_UP_QUEUE, PROCESSING_QUEUE, type PieceJobData, type ProcessingJobData, type RequestJobData } from '../pipeline/jobs.ts';
import { joinSubmission } from '../pipeline/join.ts';
import { runPiece } from '../pipeline/pieces.ts';
import { runRequest } from '../pipeline/rework.ts';
import { processSubmission } from '../pipeline/submission.ts';

type QueueJobData = ProcessingJobData | PieceJobData | RequestJobData;

/** What a job of the queue is: a submission to plan, one of its pieces, its join, or an edit. */
function describe(data: QueueJobData): string {
  if ('requestId' in data) return `${data.processingId} (${data.kind} ${data.requestId})`;
  if (!('planId' in data)) return data.processingId;
  return data.piece === undefined ? `${data.processingId} (join)` : `${data.processingId} (piece ${data.piece})`;
}

export async function runJobs(boss: PgBoss, ctx: JobContext): Promise<void> {
  const { config, store, log } = ctx;
  // One queue for every kind, so a worker runs `concurrency` jobs of any kind at once (one ffmpeg
  // per machine); pieces and joins carry no subscriber group, so one episode's pieces spread over
  // every worker. NOTIFY wakes an idle worker when a job is queued (queue.ts); the 1 s poll stays for
  // the jobs nothing announces (a retry coming due, a dead worker's job given back).
  await boss.work<QueueJobData>(
    PROCESSING_QUEUE,
    { batchSize: 1, localConcurrency: config.concurrency, groupConcurrency: config.jobsPerSubscriber, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
    async ([job]: Job<QueueJobData>[]) => {
      const { data } = job;
      const { processingId } = data;
      const what = describe(data);
      const began = Date.now();
      log(`processing ${what} (attempt ${job.retryCount + 1})`);
      try {
        const retry = job.retryCount > 0;
        if ('requestId' in data) await runRequest(ctx, data, job.signal);
        else if (!('planId' in data)) await processSubmission(ctx, boss, processingId, job.signal);
        else if (data.piece === undefined) await joinSubmission(ctx, data, job.signal, retry);
        else await runPiece(ctx, boss, { ...data, piece: data.piece }, job.signal, retry);
        log(`processed ${what} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      } catch (error) {
        const reason = (error as Error).message;
        if (job.signal.aborted) throw error;
        const permanent = isPermanent(error);
        if ('requestId' in data) {
          // An edit that fails leaves the delivered episode as it was; the request says why.
          if (permanent || job.retryCount >= config.retryLimit) {
            log(`failed ${what}: ${reason}`);
            await store.requestFailed(data.requestId, reason);
            return;
          }
          throw error;
        }
        if (permanent || job.retryCount >= config.retryLimit) {
          // Given up: recorded for the subscriber and the admins; the job itself completes.
          log(`failed ${what}: ${reason}`);
          await store.failed(processingId, reason, failsForGood(error));
          return;
        }
        log(`attempt failed for ${what}, will retry: ${reason}`);
        await store.attemptFailed(processingId, reason);
        throw error;
      }
    },
  );
  // A submission whose last attempt died with its worker never reached the handler's own
  // give-up: pg-boss moves the job here and the row is marked failed.
  await boss.work<ProcessingJobData>(GAVE_UP_QUEUE, { pollingIntervalSeconds: 5 }, async ([job]: Job<ProcessingJobData>[]) => {
    if (await store.failed(job.data.processingId, 'Processing stopped repeatedly before it could finish. Please retry the episode or contact support.', false)) {
      log(`gave up on ${job.data.processingId}`);
    }
  });
}
