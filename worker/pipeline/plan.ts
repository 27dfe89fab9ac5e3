// A submission's work in pieces any worker of the pool takes from the queue (issue 28; why and how
// in docs/decisions.md "Processing in pieces"). The submission job writes the plan and queues its
// pieces in one transaction (the picture's segments first, before the words and the sound's
// analysis, then the rest); a piece renders one file into the private processing-pieces bucket
// (workers share only Postgres and Storage) and records itself done; the piece that finds them all
// done queues the join, whose job id is the plan id, so it is queued once however many pieces
// finish together. The plan's shape is the domain's (SubmissionPlan, with its version).
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { PROCESSING_PIECES_BUCKET, timeLimitReason } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { PLAN_VERSION, type SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { SIGNED_URL_MAX_SECONDS } from '../../supabase/functions/_shared/domain-server/storage-limits.ts';
import { ProcessingFailure } from '../failure.ts';
import { signedObjectUrls } from '../platforms/storage.ts';
import type { JobContext } from './job-context.ts';
import { PROCESSING_QUEUE, type PieceJobData, type PieceQueue } from './jobs.ts';

/** Past the plan's time limit, so the handler's own limit (with its reason) always fires first. */
export const EXPIRY_MARGIN_SECONDS = 600;
/**
 * Pieces and joins go before new submissions (priority <= 0, feeder.ts): an episode under way
 * finishes first, its join before any other piece. Among the pieces the clips go first (each is
 * delivered for review as soon as it is made: the subscriber's first look), then the long ones (the
 * sound over the whole, a copied picture), and the video segments fill in around them, so the pool
 * does not wait on a long piece taken last (longest first).
 */
const PRIORITY = { segment: 1, long: 2, clip: 3, join: 4 };

export type PieceSpec = { kind: 'copy' } | { kind: 'video'; index: number } | { kind: 'audio' } | { kind: 'clip'; index: number };

export function planPieces(plan: SubmissionPlan): PieceSpec[] {
  const episode: PieceSpec[] = plan.episode.copied
    ? [{ kind: 'copy' }]
    : [...plan.episode.layout.video.map((_, index): PieceSpec => ({ kind: 'video', index })), { kind: 'audio' }];
  return [...episode, ...plan.clips.map((_, index): PieceSpec => ({ kind: 'clip', index }))];
}

export function pieceFileName(piece: PieceSpec): string {
  switch (piece.kind) {
    case 'copy':
      return 'episode.mp4';
    case 'audio':
      return 'audio.m4a';
    case 'video':
      return `video-${piece.index}.mp4`;
    case 'clip':
      return `clip-${piece.index + 1}.mp4`;
  }
}

/**
 * Everything a piece's file depends on, hashed (issue 43, item 2): the episode's file and trim, the
 * brand files, the subscriber's options and look, the plan's caps, the encoder's settings, and the
 * piece's own part of the plan (its segment, the sound's layout and loudness, or the clip's moment
 * and words). A retry whose piece has the fingerprint of a piece an earlier attempt rendered reuses
 * that file; anything that could change the file changes the fingerprint.
 */
export function pieceFingerprint(job: ProcessingJob, plan: SubmissionPlan, piece: PieceSpec, encode: unknown): string {
  const own = (() => {
    switch (piece.kind) {
      case 'clip': {
        const clip = plan.clips[piece.index];
        const words = plan.transcript?.words.filter((word) => word.end > clip.start && word.start < clip.end) ?? null;
        return { clip, clipIntroSeconds: plan.clipIntroSeconds, words, title: plan.title, keywords: plan.keywords };
      }
      case 'video':
        return plan.episode.copied ? plan.episode : { layout: { ...plan.episode.layout, video: plan.episode.layout.video[piece.index] } };
      default:
        return { episode: plan.episode, loudness: plan.loudness };
    }
  })();
  const inputs = { version: PLAN_VERSION, piece, main: plan.main, start: plan.start, end: plan.end, brand: plan.brand, options: job.options, look: job.brand, limits: job.limits, encode, own };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

export const pieceObjectPath = (processingId: string, planId: string, name: string) => `${processingId}/${planId}/${name}`;

/** Every object a plan puts in the pieces bucket. */
export function planObjectPaths(processingId: string, plan: SubmissionPlan): string[] {
  const names = planPieces(plan).map(pieceFileName);
  if (plan.main.bucket === PROCESSING_PIECES_BUCKET) names.push(path.basename(plan.main.path));
  return names.map((name) => pieceObjectPath(processingId, plan.planId, name));
}

export const newPlanId = () => randomUUID();

/**
 * The episode's picture segments queued before the rest of the plan is known: they need neither the
 * words nor the sound's analysis, so the pool encodes them while the submission job transcribes and
 * analyses. Until savePlan writes the plan's count, its row holds one it cannot reach (every clip
 * the tier allows, plus the sound), so no piece queues the join early. Answers how many it queued.
 */
export async function queuePictureFirst(ctx: JobContext, boss: PieceQueue, job: ProcessingJob, plan: SubmissionPlan): Promise<number> {
  if (plan.episode.copied) return 0;
  const segments = plan.episode.layout.video.length;
  await writePlan(ctx, boss, job, plan, { pieces: segments + 1 + job.clipsPerEpisode, queue: { from: 0, to: segments } });
  return segments;
}

/** The plan written whole and its pieces queued (after the `queued` first ones), together or not at all. */
export async function savePlan(ctx: JobContext, boss: PieceQueue, job: ProcessingJob, plan: SubmissionPlan, queued = 0): Promise<void> {
  const pieces = planPieces(plan);
  await writePlan(ctx, boss, job, plan, { pieces: pieces.length, queue: { from: queued, to: pieces.length } });
  ctx.log(`planned ${job.id}: ${pieces.length} piece(s) (${pieces.map((p) => p.kind).join(', ')})`);
}

async function writePlan(
  ctx: JobContext,
  boss: PieceQueue,
  job: ProcessingJob,
  plan: SubmissionPlan,
  { pieces, queue }: { pieces: number; queue: { from: number; to: number } },
): Promise<void> {
  const specs = planPieces(plan);
  const client = await ctx.db.connect();
  try {
    await client.query('begin');
    await ctx.store.savePlan(client, job.id, plan, pieces);
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    for (let index = queue.from; index < queue.to; index++) {
      const data: PieceJobData = { processingId: job.id, planId: plan.planId, piece: index };
      const { kind } = specs[index];
      const priority = kind === 'video' ? PRIORITY.segment : kind === 'clip' ? PRIORITY.clip : PRIORITY.long;
      await boss.send(PROCESSING_QUEUE, data, { priority, expireInSeconds: job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS, db });
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The submission's current plan when it is `planId`, or null when a piece of it has nothing to do
 * (the plan was replaced or is done). A plan another version of the worker wrote cannot be read:
 * the episode fails with a reason the subscriber can act on (a retry plans it again).
 */
export async function currentPlan(ctx: JobContext, processingId: string, planId: string): Promise<SubmissionPlan | null> {
  const plan = await ctx.store.plan(processingId, planId);
  if (plan === 'outdated') {
    throw new ProcessingFailure('Processing was interrupted by an update of Castloop. Please retry the episode.', true);
  }
  return plan;
}

/** Seconds of the delivered episode before its main part (its intro, or a copied picture's lead before the trim). */
export function episodeIntroSeconds(plan: SubmissionPlan): number {
  return plan.episode.copied ? plan.start - plan.episode.start : plan.episode.layout.introFrames / plan.episode.layout.fps;
}

/** Queues the join; its job id is the plan id, so queuing it again changes nothing. */
export async function queueJoin(boss: PieceQueue, job: ProcessingJob, planId: string): Promise<void> {
  const data: PieceJobData = { processingId: job.id, planId };
  await boss.send(PROCESSING_QUEUE, data, { id: planId, priority: PRIORITY.join, expireInSeconds: job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS });
}

/**
 * The plan's time limit bounds each job of the submission: past it every ffmpeg of the job is
 * killed and the episode fails (not retried: the same input would run out of time again).
 */
export async function withTimeLimit(job: ProcessingJob, jobSignal: AbortSignal, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const timeLimit = AbortSignal.timeout(job.limits.timeLimitSeconds * 1000);
  try {
    await run(AbortSignal.any([jobSignal, timeLimit]));
  } catch (error) {
    if (timeLimit.aborted && !jobSignal.aborted) throw new ProcessingFailure(timeLimitReason(job.limits), true);
    throw error;
  }
}

/**
 * Signed URLs for `objectPaths` of `bucket`, in one request, that last as long as a job of this
 * submission may run; answered by path.
 */
export async function signedForJob(ctx: JobContext, job: ProcessingJob, bucket: string, objectPaths: string[], signal: AbortSignal): Promise<Map<string, string>> {
  const lifetime = Math.min(SIGNED_URL_MAX_SECONDS, job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS);
  const urls = await signedObjectUrls(ctx.config, bucket, objectPaths, lifetime, signal);
  return new Map(objectPaths.map((objectPath, i) => [objectPath, urls[i]]));
}

/** One signed URL (signedForJob for a single object). */
export async function signedUrlForJob(ctx: JobContext, job: ProcessingJob, bucket: string, objectPath: string, signal: AbortSignal): Promise<string> {
  const url = (await signedForJob(ctx, job, bucket, [objectPath], signal)).get(objectPath);
  if (!url) throw new Error(`Storage signed no URL for ${bucket}/${objectPath}`);
  return url;
}
