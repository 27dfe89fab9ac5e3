// The submission job (issue 28, docs/decisions.md "Processing in pieces"): it probes the episode
// where it is stored, queues its picture's segments at once, then transcribes and analyses its
// sound and plans the other pieces (plan.ts), which any worker renders (pieces.ts) before the join
// delivers everything (join.ts). Safe to run again after a crash: a delivered or failed submission
// is left alone, and a new plan replaces the old one.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { EPISODES_BUCKET } from '../../supabase/functions/_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import type { EpisodeContent } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import {
  BRAND_VIDEO_MAX_SECONDS,
  episodeLengthProblem,
  logoSizeProblem,
  PROCESSING_PIECES_BUCKET,
  videoLimitProblem,
} from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import { PLAN_VERSION, type BrandVideo, type SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { transcriptKeywords } from '../content/show-notes.ts';
import { ProcessingFailure } from '../failure.ts';
import { analyseAudio } from '../media/analysis.ts';
import { spreadClips } from '../media/clip-selection.ts';
import { renderAudiogram } from '../media/audiogram.ts';
import { probe, probeImage, type MediaInput } from '../media/ffmpeg.ts';
import { brandColours } from '../media/styles.ts';
import { loudnessOf } from '../media/loudness.ts';
import { copySoundTrack, copyStart, joinParts, planEpisode } from '../media/render.ts';
import { downloadObject, uploadObject } from '../platforms/storage.ts';
import { chooseClips, episodeKeywords, episodeTitle } from './clip-words.ts';
import { clipRating, transcribeStage, writingStage } from './content-stage.ts';
import { episodeDrive, safeName } from './drive-delivery.ts';
import type { JobContext } from './job-context.ts';
import type { PieceQueue } from './jobs.ts';
import { episodeIntroSeconds, newPlanId, pieceObjectPath, queuePictureFirst, savePlan, signedUrlForJob, withTimeLimit } from './plan.ts';
import { titleOf } from '../writing/writing.ts';

/** The sound's profile and loudness, as analyseAudio measures them. */
type SoundAnalysis = Awaited<ReturnType<typeof analyseAudio>>;

/** hh:mm:ss (validated by submit_episode) to seconds. */
function timestampSeconds(value: string | null): number | null {
  if (!value) return null;
  const [h, m, s] = value.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

/** The part of the video the subscriber asked for, or a permanent error when nothing is left. */
function trimRange(job: ProcessingJob, durationSeconds: number): { start: number; end: number } {
  const start = timestampSeconds(job.options.startTimestamp) ?? 0;
  const end = Math.min(durationSeconds, timestampSeconds(job.options.endTimestamp) ?? durationSeconds);
  if (start >= durationSeconds) {
    throw ProcessingFailure.unusableInput(`The start time ${job.options.startTimestamp} is past the end of the video.`);
  }
  if (end - start < 1) throw ProcessingFailure.unusableInput('The start and end times leave nothing of the video.');
  return { start, end };
}

async function fetchInput(ctx: JobContext, dir: string, bucket: string, objectPath: string, name: string, signal: AbortSignal): Promise<MediaInput> {
  const file = path.join(dir, name);
  await downloadObject(ctx.config, bucket, objectPath, file, signal);
  // Reasons name the subscriber's file, not the worker's copy.
  return { file, info: await probe(file, signal, path.basename(objectPath)) };
}

/**
 * An uploaded part as ffmpeg reads it: a signed URL, probed over HTTP. Nothing is copied to the
 * worker's disk first, so the picture's segments are queued as soon as it is probed.
 */
async function uploadedPart(ctx: JobContext, job: ProcessingJob, objectPath: string, signal: AbortSignal): Promise<MediaInput> {
  const file = await signedUrlForJob(ctx, job, EPISODES_BUCKET, objectPath, signal);
  // Reasons name the subscriber's file, not the URL.
  return { file, info: await probe(file, signal, path.basename(objectPath)) };
}

/**
 * An uploaded part as the episode's picture comes from: the upload itself, or for sound with no
 * picture (issue 44, item 3) its audiogram, drawn with the podcast's artwork (else the logo).
 */
async function pictureOf(ctx: JobContext, job: ProcessingJob, part: MediaInput, index: number, dir: string, signal: AbortSignal): Promise<MediaInput> {
  if (part.info.video) return part;
  const artworkPath = (await ctx.store.artworkPath(job.id)) ?? job.brand.logoPath;
  let image: string | undefined;
  if (artworkPath) {
    image = path.join(dir, `audiogram-image-${index}${path.extname(artworkPath) || '.png'}`);
    // A missing artwork draws the audiogram without it rather than failing the episode.
    await downloadObject(ctx.config, BRAND_ASSETS_BUCKET, artworkPath, image, signal).catch((error: Error) => {
      ctx.log(`audiogram of ${job.id} without its artwork: ${error.message}`);
      image = undefined;
    });
  }
  await ctx.store.progress(job.id, 'drawing the audiogram', 3);
  return renderAudiogram({ audio: part, image, colours: brandColours(job.brand), dir, output: path.join(dir, `audiogram-${index}.mp4`), encode: ctx.config.encode }, signal);
}

/**
 * A brand video when the profile has one. A missing or unreadable one is skipped, not fatal; one
 * over the caps is refused with the reason (the subscriber can replace it).
 */
async function optionalAsset(
  ctx: JobContext,
  job: ProcessingJob,
  dir: string,
  objectPath: string | null,
  slot: { file: string; label: string },
  signal: AbortSignal,
): Promise<MediaInput | undefined> {
  if (!objectPath) return undefined;
  let asset: MediaInput;
  try {
    asset = await fetchInput(ctx, dir, BRAND_ASSETS_BUCKET, objectPath, slot.file, signal);
  } catch (error) {
    if (signal.aborted || !(error instanceof ProcessingFailure)) throw error;
    ctx.log(`skipping brand asset ${objectPath}: ${error.message}`);
    return undefined;
  }
  if (!asset.info.video) return undefined;
  const problem = videoLimitProblem(slot.label, asset.info, job.limits, BRAND_VIDEO_MAX_SECONDS);
  if (problem) throw new ProcessingFailure(problem, true);
  return asset;
}

/** The logo when the profile has one: read as one PNG only; unreadable is skipped, too large refused. */
async function optionalLogo(ctx: JobContext, dir: string, objectPath: string, signal: AbortSignal): Promise<string | undefined> {
  const file = path.join(dir, 'logo.png');
  let size: { width: number; height: number };
  try {
    await downloadObject(ctx.config, BRAND_ASSETS_BUCKET, objectPath, file, signal);
    size = await probeImage(file, signal);
  } catch (error) {
    if (signal.aborted || !(error instanceof ProcessingFailure)) throw error;
    ctx.log(`skipping logo ${objectPath}: ${error.message}`);
    return undefined;
  }
  const problem = logoSizeProblem(size);
  if (problem) throw new ProcessingFailure(problem, true);
  return file;
}

/** `work`'s answer, its time in the log: the plan's steps that wait on outside services (bench/review-wait.ts reads them). */
async function timed<T>(ctx: JobContext, job: ProcessingJob, step: string, work: () => Promise<T>): Promise<T> {
  const began = Date.now();
  try {
    return await work();
  } finally {
    ctx.log(`${job.id}: ${step} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
}

/** The submission job: probed, analysed, and planned in pieces for the pool (pieces.ts). */
export async function processSubmission(ctx: JobContext, boss: PieceQueue, processingId: string, jobSignal: AbortSignal): Promise<void> {
  const job = await ctx.store.load(processingId);
  if (!job || job.status === 'delivered' || job.status === 'failed') return;
  if (!job.userId) throw ProcessingFailure.unusableInput('The subscriber no longer exists.');
  const userId = job.userId;
  await withTimeLimit(job, jobSignal, (signal) => processJob(ctx, job, userId, signal, boss));
}

async function processJob(ctx: JobContext, job: ProcessingJob, userId: string, signal: AbortSignal, boss: PieceQueue): Promise<void> {
  const { store, config } = ctx;
  await store.started(job.id, config.workerName);
  // Without a usable Google connection nothing can be delivered: say so before any rendering.
  await ctx.tokens.accessToken(userId, 'google');

  await mkdir(config.tempDir, { recursive: true });
  const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-`));
  try {
    await store.progress(job.id, 'reading the upload', 2);
    const parts: MediaInput[] = [];
    // An audiogram is drawn here: the pieces read it from Storage, not the upload.
    let drawn = false;
    for (const [index, objectPath] of job.files.entries()) {
      const part = await uploadedPart(ctx, job, objectPath, signal);
      if (!part.info.video && !part.info.hasAudio) throw ProcessingFailure.unusableInput(`${path.basename(objectPath)} has neither picture nor sound`);
      const problem = videoLimitProblem(path.basename(objectPath), part.info, job.limits, null);
      if (problem) throw ProcessingFailure.unusableInput(problem);
      const picture = await pictureOf(ctx, job, part, index, dir, signal);
      drawn ||= picture !== part;
      parts.push(picture);
    }
    const tooLong = episodeLengthProblem(
      parts.reduce((sum, part) => sum + part.info.durationSeconds, 0),
      job.limits,
    );
    if (tooLong) throw ProcessingFailure.unusableInput(tooLong);
    const main = parts.length === 1 ? parts[0] : await joinParts(parts, path.join(dir, 'joined.mp4'), config.encode, signal);
    const { start, end } = trimRange(job, main.info.durationSeconds);

    const brandVideo = (objectPath: string | null, file: string, label: string) =>
      job.options.addIntroOutro ? optionalAsset(ctx, job, dir, objectPath, { file, label }, signal) : Promise.resolve(undefined);
    const intro = await brandVideo(job.brand.videoIntroPath, 'intro.mp4', 'Your video intro');
    const outro = await brandVideo(job.brand.videoOutroPath, 'outro.mp4', 'Your video outro');
    const clipIntro = await brandVideo(job.brand.clipIntroPath, 'clip-intro.mp4', 'Your clip intro');
    const clipOutro = await brandVideo(job.brand.clipOutroPath, 'clip-outro.mp4', 'Your clip outro');
    const logo = job.options.addLogo && job.brand.logoPath ? await optionalLogo(ctx, dir, job.brand.logoPath, signal) : undefined;

    const copyFrom = await copyStart({ main, start, intro, outro, logo, signal });
    // Each brand video's loudness, measured once here for every piece that joins it. (Framing the
    // clips stays in their pieces: at 1080p it decodes every clip's moment, ~4 CPU s a clip, too
    // much for this serial part.)
    const measuredVideo = async (input: MediaInput | undefined, objectPath: string | null): Promise<BrandVideo | null> =>
      input && objectPath ? { path: objectPath, info: input.info, loudness: input.info.hasAudio ? await loudnessOf(input, signal) : null } : null;
    const [introVideo, outroVideo, clipIntroVideo, clipOutroVideo] = await Promise.all([
      measuredVideo(intro, job.brand.videoIntroPath),
      measuredVideo(outro, job.brand.videoOutroPath),
      measuredVideo(clipIntro, job.brand.clipIntroPath),
      measuredVideo(clipOutro, job.brand.clipOutroPath),
    ]);
    const planId = newPlanId();
    // The pieces read the episode from Storage: the subscriber's own file, or the parts joined here.
    const mainObject =
      main === parts[0] && !drawn
        ? { bucket: EPISODES_BUCKET, path: job.files[0] }
        : { bucket: PROCESSING_PIECES_BUCKET, path: pieceObjectPath(job.id, planId, 'main.mp4') };
    if (mainObject.bucket === PROCESSING_PIECES_BUCKET) await uploadObject(config, mainObject.bucket, mainObject.path, main.file, 'video/mp4', signal);
    // What the picture's pieces need; the words, the sound's measurement and the clips follow.
    const planSoFar: SubmissionPlan = {
      version: PLAN_VERSION,
      planId,
      title: job.title,
      main: { ...mainObject, info: main.info },
      start,
      end,
      brand: { intro: introVideo, outro: outroVideo, clipIntro: clipIntroVideo, clipOutro: clipOutroVideo, logo: (logo && job.brand.logoPath) ?? null },
      loudness: null,
      episode:
        copyFrom !== null
          ? { copied: true, start: copyFrom }
          : {
              copied: false,
              layout: planEpisode({
                main: main.info,
                start,
                end,
                introSeconds: intro?.info.durationSeconds,
                outroSeconds: outro?.info.durationSeconds,
                segmentSeconds: config.segmentSeconds,
              }),
            },
      clipIntroSeconds: clipIntro?.info.durationSeconds ?? 0,
      clips: [],
      transcript: null,
      keywords: [],
      writing: null,
    };
    const queued = await queuePictureFirst(ctx, boss, job, planSoFar);

    // The words (issue 27): never fatal; without them the clips are still made, by sound.
    await store.progress(job.id, 'transcribing and analysing', 10);
    const sound = main.info.hasAudio ? await copySoundTrack(main, path.join(dir, 'sound.mov'), signal) : main;
    // The analysis (and the loudness all is normalised with) decodes the sound while the words are recognised.
    const analysing = main.info.hasAudio ? analyseAudio(sound.file, start, end - start, signal) : null;
    const [words, analysis] = await timed(ctx, job, 'words', () => Promise.all([transcribeStage(config.transcription, job, sound, { start, end }, dir, signal), analysing]));
    // A blog post an earlier attempt put on WordPress stays recorded (it is never posted twice).
    const content = { ...words.content, blogPost: job.content?.blogPost ?? null };
    await store.content(job.id, content);

    const plan = await completePlan(ctx, job, userId, planSoFar, { transcript: words.transcript, analysis, content }, signal);
    await savePlan(ctx, boss, job, plan, queued);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The plan completed once the words and the sound's analysis are in: the clips chosen on both (on
 * the sound alone without words), the words written, the title, and the episode's Drive folder.
 */
async function completePlan(
  ctx: JobContext,
  job: ProcessingJob,
  userId: string,
  planSoFar: SubmissionPlan,
  heard: { transcript: Transcript | null; analysis: SoundAnalysis | null; content: EpisodeContent },
  signal: AbortSignal,
): Promise<SubmissionPlan> {
  const { store } = ctx;
  const { transcript, analysis, content } = heard;
  const keywords = episodeKeywords(transcript, transcript ? transcriptKeywords(transcript) : undefined);

  await store.progress(job.id, 'choosing the clips', 12);
  // The writing engine rates the best moments when it can (its spend counted with the writing's).
  const { usage, rate } = clipRating(ctx, job, transcript, signal);
  const clips = analysis
    ? await chooseClips(transcript, analysis, job.clipsPerEpisode, keywords, { log: ctx.log, rate })
    : spreadClips(planSoFar.end - planSoFar.start, job.clipsPerEpisode);

  // The words written (worker/writing); the title is the engine's suggestion unless the subscriber gave one.
  const writing = transcript ? await timed(ctx, job, 'writing', () => writingStage(ctx, job, { transcript, clips, at: episodeIntroSeconds(planSoFar) }, content, signal, usage)) : null;
  const title = writing ? titleOf(job, writing.titles) : episodeTitle(job, keywords);
  if (title !== job.title) await store.suggestedTitle(job.id, title);

  await store.progress(job.id, 'planning the pieces', 14);
  // The episode's Drive folder, made once here: the clips' pieces deliver into it side by side.
  await episodeDrive(ctx, job, userId, safeName(title), signal);
  return { ...planSoFar, title, loudness: analysis?.loudness ?? null, clips, transcript, keywords, writing };
}
