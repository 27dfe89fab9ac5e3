// A submission's work in pieces any worker of the pool takes from the queue (issue 28; why and how
// in docs/decisions.md "Processing in pieces"). The submission job writes the plan and queues its
// pieces in one transaction (the picture's segments first, before the words and the sound's
// analysis, then the rest); a piece renders one file into the private processing-pieces bucket
// (workers share only Postgres and Storage) and records itself done; the piece that finds them all
// done queues the join, whose job id is the plan id, so it is queued once however many pieces
// finish together. Each piece is retried on its own by pg-boss, and a worker that dies loses only
// the piece it was rendering.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import { BRAND_ASSETS_BUCKET } from '../supabase/functions/_shared/domain/onboarding.ts';
import { PROCESSING_PIECES_BUCKET, timeLimitReason } from '../supabase/functions/_shared/domain-server/processing-limits.ts';
import { SIGNED_URL_MAX_SECONDS } from '../supabase/functions/_shared/domain-server/storage-limits.ts';
import type { ClipRange } from './media/clip-selection.ts';
import { clipTexts } from './media/clip-words.ts';
import { MediaError, type MediaInfo } from './media/ffmpeg.ts';
import type { Loudness } from './media/loudness.ts';
import { renderAudioTrack, renderClip, renderCopiedEpisode, renderVideoPiece, type EpisodeLayout, type MediaInput } from './media/render.ts';
import { brandColours, type ClipStyle } from './media/styles.ts';
import type { JobContext } from './process-submission.ts';
import { QUEUE, type ProcessingJobData } from './queue.ts';
import { downloadObject, signedObjectUrls, uploadObject } from './storage.ts';
import type { SubmissionJob } from './store.ts';
import type { Transcript } from './transcript/transcript.ts';

/** Past the plan's time limit, so the handler's own limit (with its reason) always fires first. */
export const EXPIRY_MARGIN_SECONDS = 600;
/**
 * Pieces and joins go before new submissions (priority <= 0, feeder.ts): an episode under way
 * finishes first, its join before any piece. Among the pieces the long ones (the sound over the
 * whole, a copied picture, the clips) start first and the video segments fill in around them, so
 * the pool does not wait on a long piece taken last (longest first).
 */
const PRIORITY = { segment: 1, long: 2, join: 3 };

/** What the submission job found and chose, for the pieces and the join. */
export interface SubmissionPlan {
  planId: string;
  title: string;
  /** The episode as the pieces read it: the subscriber's file, or the parts joined by the submission job. */
  main: { bucket: string; path: string; info: MediaInfo };
  start: number;
  end: number;
  /** The brand files the submission job accepted (brand-assets paths), the videos probed and measured once. */
  brand: { intro: BrandVideo | null; outro: BrandVideo | null; clipIntro: BrandVideo | null; clipOutro: BrandVideo | null; logo: string | null };
  loudness: Loudness | null;
  episode: { copied: true; start: number } | { copied: false; layout: EpisodeLayout };
  clipIntroSeconds: number;
  clips: ClipRange[];
  transcript: Transcript | null;
  keywords: string[];
}

/** A brand video as the submission job found it: the pieces neither probe nor measure it again. */
export interface BrandVideo {
  path: string;
  info: MediaInfo;
  loudness: Loudness | null;
}

export type PieceSpec = { kind: 'copy' } | { kind: 'video'; index: number } | { kind: 'audio' } | { kind: 'clip'; index: number };

export interface PieceJobData extends ProcessingJobData {
  planId: string;
  /** A piece's index in the plan's pieces; absent for the join. */
  piece?: number;
}

/** What queues jobs: pg-boss (its `send`), inside the caller's transaction when `db` is given. */
export type PieceQueue = Pick<PgBoss, 'send'>;

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
export async function queuePictureFirst(ctx: JobContext, boss: PieceQueue, job: SubmissionJob, plan: SubmissionPlan): Promise<number> {
  if (plan.episode.copied) return 0;
  const segments = plan.episode.layout.video.length;
  await writePlan(ctx, boss, job, plan, { pieces: segments + 1 + job.clipsPerEpisode, queue: { from: 0, to: segments } });
  return segments;
}

/** The plan written whole and its pieces queued (after the `queued` first ones), together or not at all. */
export async function savePlan(ctx: JobContext, boss: PieceQueue, job: SubmissionJob, plan: SubmissionPlan, queued = 0): Promise<void> {
  const pieces = planPieces(plan);
  await writePlan(ctx, boss, job, plan, { pieces: pieces.length, queue: { from: queued, to: pieces.length } });
  ctx.log(`planned ${job.id}: ${pieces.length} piece(s) (${pieces.map((p) => p.kind).join(', ')})`);
}

async function writePlan(
  ctx: JobContext,
  boss: PieceQueue,
  job: SubmissionJob,
  plan: SubmissionPlan,
  { pieces, queue }: { pieces: number; queue: { from: number; to: number } },
): Promise<void> {
  const specs = planPieces(plan);
  const client = await ctx.db.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into private.processing_plans (processing_id, plan_id, plan, pieces) values ($1, $2, $3, $4)
       on conflict (processing_id) do update set plan_id = excluded.plan_id, plan = excluded.plan, pieces = excluded.pieces, created_at = now()`,
      [job.id, plan.planId, JSON.stringify(plan), pieces],
    );
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    for (let index = queue.from; index < queue.to; index++) {
      const data: PieceJobData = { processingId: job.id, planId: plan.planId, piece: index };
      const priority = specs[index].kind === 'video' ? PRIORITY.segment : PRIORITY.long;
      await boss.send(QUEUE, data, { priority, expireInSeconds: job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS, db });
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The submission's current plan when it is `planId` (a piece of a replaced plan has nothing to do). */
export async function loadPlan(ctx: JobContext, processingId: string, planId: string): Promise<SubmissionPlan | null> {
  const { rows } = await ctx.db.query<{ plan: SubmissionPlan }>(`select plan from private.processing_plans where processing_id = $1 and plan_id = $2`, [processingId, planId]);
  return rows[0]?.plan ?? null;
}

export async function dropPlan(ctx: JobContext, processingId: string): Promise<void> {
  await ctx.db.query(`delete from private.processing_plans where processing_id = $1`, [processingId]);
}

/**
 * Records a piece done and counts the plan's pieces done against its row's count. Two statements:
 * each piece's count runs after its own insert has committed, so the last of them to count sees
 * every piece. Null when the plan is gone.
 */
async function pieceDone(ctx: JobContext, planId: string, piece: number): Promise<{ done: number; total: number } | null> {
  await ctx.db.query(`insert into private.processing_pieces_done (plan_id, piece) values ($1, $2) on conflict do nothing`, [planId, piece]);
  const { rows } = await ctx.db.query<{ done: number; total: number }>(
    `select (select count(*) from private.processing_pieces_done d where d.plan_id = p.plan_id)::int as done, p.pieces as total
       from private.processing_plans p where p.plan_id = $1`,
    [planId],
  );
  return rows[0] ?? null;
}

/** Queues the join; its job id is the plan id, so queuing it again changes nothing. */
export async function queueJoin(boss: PieceQueue, job: SubmissionJob, planId: string): Promise<void> {
  const data: PieceJobData = { processingId: job.id, planId };
  await boss.send(QUEUE, data, { id: planId, priority: PRIORITY.join, expireInSeconds: job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS });
}

/**
 * The plan's time limit bounds each job of the submission: past it every ffmpeg of the job is
 * killed and the episode fails (not retried: the same input would run out of time again).
 */
export async function withTimeLimit(job: SubmissionJob, jobSignal: AbortSignal, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const timeLimit = AbortSignal.timeout(job.limits.timeLimitSeconds * 1000);
  try {
    await run(AbortSignal.any([jobSignal, timeLimit]));
  } catch (error) {
    if (timeLimit.aborted && !jobSignal.aborted) throw new MediaError(timeLimitReason(job.limits), true);
    throw error;
  }
}

/** Signed URLs for `objectPaths` of `bucket`, in one request, that last as long as a job of this submission may run. */
export function signedForJob(ctx: JobContext, job: SubmissionJob, bucket: string, objectPaths: string[], signal: AbortSignal): Promise<string[]> {
  const lifetime = Math.min(SIGNED_URL_MAX_SECONDS, job.limits.timeLimitSeconds + EXPIRY_MARGIN_SECONDS);
  return signedObjectUrls(ctx.config, bucket, objectPaths, lifetime, signal);
}

/**
 * The episode's source for a piece: a signed URL that ffmpeg reads with HTTP range requests, so a
 * machine fetches only the bytes of its piece's part (not the whole upload, up to 3 GB).
 */
async function sourceInput(ctx: JobContext, job: SubmissionJob, plan: SubmissionPlan, signal: AbortSignal): Promise<MediaInput> {
  const [file] = await signedForJob(ctx, job, plan.main.bucket, [plan.main.path], signal);
  return { file, info: plan.main.info };
}

/** A brand video the plan accepted, fetched for this piece (as probed and measured by the submission job). */
async function brandInput(ctx: JobContext, dir: string, video: BrandVideo | null, name: string, signal: AbortSignal): Promise<MediaInput | undefined> {
  if (!video) return undefined;
  const file = path.join(dir, name);
  await downloadObject(ctx.config, BRAND_ASSETS_BUCKET, video.path, file, signal);
  return { file, info: video.info, loudness: video.loudness };
}

const stageOf = (piece: PieceSpec, plan: SubmissionPlan) =>
  piece.kind === 'clip' ? `rendering clip ${piece.index + 1} of ${plan.clips.length}` : 'rendering the episode';

/** One piece: rendered, stored, recorded; the last one queues the join. */
export async function runPiece(ctx: JobContext, boss: PieceQueue, data: PieceJobData & { piece: number }, jobSignal: AbortSignal, retry: boolean): Promise<void> {
  const { store, config } = ctx;
  const job = await store.load(data.processingId);
  if (!job || job.status === 'delivered' || job.status === 'failed') return;
  const plan = await loadPlan(ctx, job.id, data.planId);
  const piece = plan && planPieces(plan)[data.piece];
  if (!plan || !piece) return;
  await withTimeLimit(job, jobSignal, async (signal) => {
    await store.jobStarted(job.id, config.workerName, stageOf(piece, plan), retry);
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-piece-${data.piece}-`));
    try {
      const main = await sourceInput(ctx, job, plan, signal);
      const output = path.join(dir, pieceFileName(piece));
      await renderPiece(ctx, job, plan, piece, main, dir, output, signal);
      await uploadObject(config, PROCESSING_PIECES_BUCKET, pieceObjectPath(job.id, plan.planId, pieceFileName(piece)), output, piece.kind === 'audio' ? 'audio/mp4' : 'video/mp4', signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Progress out of the plan's count as its row holds it (while the segments run ahead, the most it can come to).
    const count = await pieceDone(ctx, plan.planId, data.piece);
    if (count && count.done >= count.total) await queueJoin(boss, job, plan.planId);
    else if (count) await store.progress(job.id, stageOf(piece, plan), 15 + (60 * count.done) / count.total);
  });
}

async function renderPiece(
  ctx: JobContext,
  job: SubmissionJob,
  plan: SubmissionPlan,
  piece: PieceSpec,
  main: MediaInput,
  dir: string,
  output: string,
  signal: AbortSignal,
): Promise<void> {
  const { config } = ctx;
  const logo = plan.brand.logo ? path.join(dir, 'logo.png') : undefined;
  if (logo && plan.brand.logo && (piece.kind === 'video' || piece.kind === 'clip')) await downloadObject(config, BRAND_ASSETS_BUCKET, plan.brand.logo, logo, signal);
  switch (piece.kind) {
    case 'copy': {
      if (!plan.episode.copied) throw new Error('a copy piece of a re-encoded episode');
      await renderCopiedEpisode({ main, copyFrom: plan.episode.start, end: plan.end, loudness: plan.loudness, output, signal });
      return;
    }
    case 'video': {
      if (plan.episode.copied) throw new Error('a video piece of a copied episode');
      const { layout } = plan.episode;
      const segment = layout.video[piece.index];
      const brand = segment.part === 'main' ? undefined : await brandInput(ctx, dir, plan.brand[segment.part], `${segment.part}.mp4`, signal);
      await renderVideoPiece({ piece: segment, layout, file: brand?.file ?? main.file, logo, output, settings: config.encode, signal });
      return;
    }
    case 'audio': {
      if (plan.episode.copied) throw new Error('an audio piece of a copied episode');
      const intro = await brandInput(ctx, dir, plan.brand.intro, 'intro.mp4', signal);
      const outro = await brandInput(ctx, dir, plan.brand.outro, 'outro.mp4', signal);
      await renderAudioTrack({ layout: plan.episode.layout, main, intro, outro, loudness: plan.loudness, output, signal });
      return;
    }
    case 'clip': {
      const clip = plan.clips[piece.index];
      const style = job.options.clipStyle as ClipStyle;
      const colours = brandColours(job.brand);
      const captionText = plan.title.replace(/\s+/g, ' ').trim();
      const caption = { textFile: path.join(dir, 'caption.txt'), length: [...captionText].length };
      await writeFile(caption.textFile, captionText, 'utf8');
      const clipHeight = Math.max(2, Math.round(config.encode.clipHeight / 2) * 2);
      const [text] = await clipTexts(
        {
          transcript: plan.transcript, trimStart: plan.start, main, style, colours,
          brandFont: job.brand.font, fonts: { registry: config.fontRegistry, cacheDir: path.join(config.tempDir, 'fonts') },
          width: Math.max(2, Math.round((clipHeight * 9) / 16 / 2) * 2), height: clipHeight,
          title: caption, dir, log: ctx.log, signal,
        },
        [clip],
      );
      await renderClip({
        main,
        start: plan.start + clip.start,
        end: plan.start + clip.end,
        intro: await brandInput(ctx, dir, plan.brand.clipIntro, 'clip-intro.mp4', signal),
        outro: await brandInput(ctx, dir, plan.brand.clipOutro, 'clip-outro.mp4', signal),
        style,
        colours,
        text,
        logo,
        loudness: plan.loudness,
        output,
        settings: config.encode,
        signal,
      });
      return;
    }
  }
}
