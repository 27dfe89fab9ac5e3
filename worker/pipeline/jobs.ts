// The jobs of the pipeline on the worker's queue: their queue's names and their data. A submission
// job carries its processing row; a piece or the join carries the plan too (plan.ts).
import type { PgBoss } from 'pg-boss';

export const PROCESSING_QUEUE = 'episode-processing';
/** Jobs whose every attempt failed, including attempts lost with their worker. */
export const GAVE_UP_QUEUE = 'episode-processing-gave-up';

export interface ProcessingJobData {
  processingId: string;
}

export interface PieceJobData extends ProcessingJobData {
  planId: string;
  /** A piece's index in the plan's pieces; absent for the join. */
  piece?: number;
}

/** A request of the subscriber's edits (private.processing_requests): clips to render again, or the words' files to write again. */
export interface RequestJobData extends ProcessingJobData {
  requestId: string;
  kind: 'rerender' | 'texts';
  clipIds: string[];
}

/** What queues jobs: pg-boss (its `send`), inside the caller's transaction when `db` is given. */
export type PieceQueue = Pick<PgBoss, 'send'>;
