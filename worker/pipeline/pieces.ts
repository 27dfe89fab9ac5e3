// One piece of a submission's plan (plan.ts): a segment of the episode's picture, its sound, a
// copied picture, or a clip, rendered by whichever worker takes it, stored in the private
// processing-pieces bucket and recorded done (a clip also delivered to Drive and recorded for
// review at once); the last piece done queues the join.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import { clipFrameOf, type ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { PROCESSING_PIECES_BUCKET } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import type { BrandVideo, ClipMoment, SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import type { MediaInput } from '../media/ffmpeg.ts';
import { clipFrameSize, renderAudioTrack, renderClip, renderCopiedEpisode, renderVideoPiece } from '../media/render.ts';
import { brandColours } from '../media/styles.ts';
import { copyObject, downloadObject, uploadObject } from '../platforms/storage.ts';
import { clipTexts } from './clip-words.ts';
import { deliverClip } from './drive-delivery.ts';
import type { JobContext } from './job-context.ts';
import type { PieceJobData, PieceQueue } from './jobs.ts';
import { currentPlan, pieceFileName, pieceFingerprint, pieceObjectPath, planPieces, queueJoin, signedUrlForJob, withTimeLimit, type PieceSpec } from './plan.ts';

/**
 * The episode's source for a piece: a signed URL that ffmpeg reads with HTTP range requests, so a
 * machine fetches only the bytes of its piece's part (not the whole upload, up to 3 GB).
 */
async function sourceInput(ctx: JobContext, job: ProcessingJob, plan: SubmissionPlan, signal: AbortSignal): Promise<MediaInput> {
  return { file: await signedUrlForJob(ctx, job, plan.main.bucket, plan.main.path, signal), info: plan.main.info };
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
  const plan = await currentPlan(ctx, job.id, data.planId);
  const piece = plan && planPieces(plan)[data.piece];
  if (!plan || !piece) return;
  await withTimeLimit(job, jobSignal, async (signal) => {
    await store.pieceStarted(job.id, config.workerName, stageOf(piece, plan), retry);
    // Found early: a Google Drive connection lost since the submission stops the episode here, not
    // after every piece is rendered (the join needs it); a retry after reconnecting reuses the pieces.
    if (job.userId) await ctx.tokens.accessToken(job.userId, 'google');
    const objectPath = pieceObjectPath(job.id, plan.planId, pieceFileName(piece));
    const fingerprint = pieceFingerprint(job, plan, piece, config.encode);
    const earlier = await store.reusablePiece(job.id, fingerprint);
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-piece-${data.piece}-`));
    try {
      const output = path.join(dir, pieceFileName(piece));
      if (earlier) {
        await copyObject(config, PROCESSING_PIECES_BUCKET, earlier, objectPath, signal);
        ctx.log(`piece ${data.piece} of ${job.id} reused from an earlier attempt`);
        if (piece.kind === 'clip') await downloadObject(config, PROCESSING_PIECES_BUCKET, objectPath, output, signal);
      } else {
        const main = await sourceInput(ctx, job, plan, signal);
        await renderPiece(ctx, job, plan, piece, main, dir, output, signal);
        await uploadObject(config, PROCESSING_PIECES_BUCKET, objectPath, output, piece.kind === 'audio' ? 'audio/mp4' : 'video/mp4', signal);
      }
      await store.pieceStored(job.id, fingerprint, objectPath, earlier !== null);
      // A clip is in Drive and on the review screen as soon as it is made, while the episode's other
      // pieces are still being rendered (issue 45: the first clip within minutes of the submission).
      if (piece.kind === 'clip') await deliverClip(ctx, job, plan, piece.index, output, signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Progress out of the plan's count as its row holds it (while the segments run ahead, the most it can come to).
    const count = await store.pieceDone(plan.planId, data.piece);
    if (count && count.done >= count.total) await queueJoin(boss, job, plan.planId);
    else if (count) await store.progress(job.id, stageOf(piece, plan), 15 + (60 * count.done) / count.total);
  });
}

async function renderPiece(
  ctx: JobContext,
  job: ProcessingJob,
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
    case 'clip':
      await renderClipPiece(ctx, job, plan, plan.clips[piece.index], { main, logo, dir, output, signal });
  }
}

/** One clip of the plan rendered into `files.output` (a piece, or a clip rendered again after an edit). */
export async function renderClipPiece(
  ctx: JobContext,
  job: ProcessingJob,
  plan: SubmissionPlan,
  clip: ClipMoment,
  files: { main: MediaInput; logo: string | undefined; dir: string; output: string; signal: AbortSignal },
): Promise<void> {
  const { config } = ctx;
  const { main, dir, signal } = files;
  const frame = clipFrameOf(job.options.clipStyle);
  const colours = brandColours(job.brand);
  const captionText = plan.title.replace(/\s+/g, ' ').trim();
  const caption = { textFile: path.join(dir, 'caption.txt'), length: [...captionText].length };
  await writeFile(caption.textFile, captionText, 'utf8');
  const size = clipFrameSize(config.encode.clipHeight, frame.aspect);
  const [text] = await clipTexts(
    {
      transcript: plan.transcript, trimStart: plan.start, main, frame, colours,
      brandFont: job.brand.font, fonts: { registry: config.fontRegistry, cacheDir: path.join(config.tempDir, 'fonts') },
      ...size, title: caption, dir, log: ctx.log, signal,
    },
    [clip],
  );
  await renderClip({
    main,
    start: plan.start + clip.start,
    end: plan.start + clip.end,
    intro: await brandInput(ctx, dir, plan.brand.clipIntro, 'clip-intro.mp4', signal),
    outro: await brandInput(ctx, dir, plan.brand.clipOutro, 'clip-outro.mp4', signal),
    frame,
    colours,
    text,
    logo: files.logo,
    loudness: plan.loudness,
    output: files.output,
    settings: config.encode,
    signal,
  });
}
