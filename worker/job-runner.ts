// The job runner: the queue's handlers that process a submission and record the ones given up on.
import type { Job, PgBoss } from 'pg-boss';
import { processSubmission, type JobContext } from './process-submission.ts';
import { GAVE_UP_QUEUE, QUEUE, type ProcessingJobData } from './queue.ts';

function isPermanent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;
}

export async function runJobs(boss: PgBoss, ctx: JobContext): Promise<void> {
  const { config, store, log } = ctx;
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
}
