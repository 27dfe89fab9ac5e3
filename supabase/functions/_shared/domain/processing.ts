// Built-in processing of a submission as subscribers and admins see it (public.episode_processing).
// Shared by the `api` function and the SPA.
import { z } from 'zod/mini';

export const PROCESSING_STATUSES = ['queued', 'processing', 'delivered', 'failed'] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** The worker's progress and outcome for one submission. */
export interface ProcessingState {
  status: ProcessingStatus;
  /** What the worker does now (downloading, analysing, rendering, uploading, scheduling). */
  stage: string | null;
  /** 0-100. */
  progress: number;
  failureReason: string | null;
  /** The failure cannot be mended by trying again (the file itself, the trim): no retry is offered. */
  failurePermanent?: boolean;
  updatedAt: string;
}

/** The fields of a processing state, for answers that extend it (the episode page). */
export const processingStateShape = {
  status: z.enum(PROCESSING_STATUSES),
  stage: z.nullable(z.string()),
  progress: z.number(),
  failureReason: z.nullable(z.string()),
  failurePermanent: z.optional(z.boolean()),
  updatedAt: z.string(),
};

/** A processing state as the SPA reads it from `/api` answers. */
export const processingStateSchema: z.ZodMiniType<ProcessingState> = z.object(processingStateShape);

/** What to do about a failure that trying again cannot mend (the retry's refusal says the same). */
export const PERMANENT_FAILURE_ADVICE = 'Submit it again with a corrected file or start and end times.';

/** Whether Retry can help: a failed state that is not permanent. */
export function canRetry(state: ProcessingState): boolean {
  return state.status === 'failed' && !state.failurePermanent;
}

/** 'rendering (40%)': the stage and progress of a state in progress, after a 'Processing' label. */
export function processingDetail(state: Pick<ProcessingState, 'stage' | 'progress'>): string {
  return `${state.stage ?? 'starting'} (${state.progress}%)`;
}

/** The words for a processing state, one place for the dashboard and the admin console. */
const processingWords = {
  queued: 'Queued',
  processing: 'Processing',
  delivered: 'Delivered',
  failed: 'Failed',
  /** 'Processing: rendering (40%)'. */
  inProgress: (stage: string | null, progress: number) => `Processing: ${processingDetail({ stage, progress })}`,
  /** 'Failed: <reason>'. */
  failedBecause: (reason: string | null) => (reason ? `Failed: ${reason}` : 'Failed'),
} as const;

/** One line describing a processing state. */
export function describeProcessing(state: ProcessingState): string {
  switch (state.status) {
    case 'queued':
      return processingWords.queued;
    case 'processing':
      return processingWords.inProgress(state.stage, state.progress);
    case 'delivered':
      return processingWords.delivered;
    case 'failed':
      return processingWords.failedBecause(state.failureReason);
  }
}
