// One submission in three kinds of queue job (issue 28, docs/decisions.md "Processing in pieces"):
// the submission job probes the episode where it is stored, queues its picture's segments at
// once, then transcribes and analyses its sound and plans the other pieces (pieces.ts); each piece
// (a segment of the episode's picture, its sound, a clip) is rendered by whichever worker takes
// it; the join puts the episode together and delivers everything to the subscriber's Drive,
// schedules the posts and records the outcome. Each is safe to run again after a crash: a
// delivered submission is left alone, and files already in Drive are not sent twice.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { EPISODES_BUCKET } from '../supabase/functions/_shared/domain/episodes.ts';
import type { EpisodeContent } from '../supabase/functions/_shared/domain/episode-content.ts';
import { BRAND_ASSETS_BUCKET } from '../supabase/functions/_shared/domain/onboarding.ts';
import type { WorkerConfig } from './config.ts';
import type { AccessTokenSource } from './access-token.ts';
import { DriveClient } from './google/drive.ts';
import { analyseAudio } from './media/analysis.ts';
import type { ClipRange } from './media/clip-selection.ts';
import { chooseClips, copyForClip, episodeKeywords, episodeTitle } from './media/clip-words.ts';
import {
  BRAND_VIDEO_MAX_SECONDS,
  episodeLengthProblem,
  logoSizeProblem,
  PROCESSING_PIECES_BUCKET,
  videoLimitProblem,
} from '../supabase/functions/_shared/domain-server/processing-limits.ts';
import { ffmpeg, inputArgs, MediaError, probe, probeImage, type MediaInfo } from './media/ffmpeg.ts';
import { loudnessOf } from './media/loudness.ts';
import { copySoundTrack, copyStart, joinEpisode, planEpisode, type MediaInput } from './media/render.ts';
import { emptyContent, publishBlogStage, transcribeStage, writeBlogPost, writeContentFiles } from './content/content-stage.ts';
import { transcriptKeywords } from './content/show-notes.ts';
import { schedulePosts } from './posting.ts';
import { deleteObjects, downloadObject, uploadObject } from './storage.ts';
import {
  dropPlan,
  loadPlan,
  newPlanId,
  pieceFileName,
  pieceObjectPath,
  planObjectPaths,
  planPieces,
  queuePictureFirst,
  savePlan,
  signedForJob,
  withTimeLimit,
  type PieceJobData,
  type PieceQueue,
  type BrandVideo,
  type PieceSpec,
  type SubmissionPlan,
} from './pieces.ts';
import type { OutputRecord, ProcessingStore, SubmissionJob } from './store.ts';
import type { Transcript } from './transcript/transcript.ts';

export interface JobContext {
  config: WorkerConfig;
  db: pg.Pool;
  store: ProcessingStore;
  tokens: AccessTokenSource;
  log: (line: string) => void;
}

/** hh:mm:ss (validated by submit_episode) to seconds. */
function timestampSeconds(value: string | null): number | null {
  if (!value) return null;
  const [h, m, s] = value.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

/** The part of the video the subscriber asked for, or a permanent error when nothing is left. */
function trimRange(job: SubmissionJob, durationSeconds: number): { start: number; end: number } {
  const start = timestampSeconds(job.options.startTimestamp) ?? 0;
  const end = Math.min(durationSeconds, timestampSeconds(job.options.endTimestamp) ?? durationSeconds);
  if (start >= durationSeconds) {
    throw new MediaError(`The start time ${job.options.startTimestamp} is past the end of the video.`, true);
  }
  if (end - start < 1) throw new MediaError('The start and end times leave nothing of the video.', true);
  return { start, end };
}

/** A file name Drive and every desktop accept: no path separators or control characters. */
const safeName = (title: string) =>
  [...title].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? ' ' : ch)).join('').replace(/\s+/g, ' ').trim().slice(0, 120) || 'Episode';

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
async function uploadedPart(ctx: JobContext, job: SubmissionJob, objectPath: string, signal: AbortSignal): Promise<MediaInput> {
  const [file] = await signedForJob(ctx, job, EPISODES_BUCKET, [objectPath], signal);
  // Reasons name the subscriber's file, not the URL.
  return { file, info: await probe(file, signal, path.basename(objectPath)) };
}

/**
 * A brand video when the profile has one. A missing or unreadable one is skipped, not fatal; one
 * over the caps is refused with the reason (the subscriber can replace it).
 */
async function optionalAsset(
  ctx: JobContext,
  job: SubmissionJob,
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
    if (signal.aborted || !(error instanceof MediaError)) throw error;
    ctx.log(`skipping brand asset ${objectPath}: ${error.message}`);
    return undefined;
  }
  if (!asset.info.video) return undefined;
  const problem = videoLimitProblem(slot.label, asset.info, job.limits, BRAND_VIDEO_MAX_SECONDS);
  if (problem) throw new MediaError(problem, true);
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
    if (signal.aborted || !(error instanceof MediaError)) throw error;
    ctx.log(`skipping logo ${objectPath}: ${error.message}`);
    return undefined;
  }
  const problem = logoSizeProblem(size);
  if (problem) throw new MediaError(problem, true);
  return file;
}

/**
 * Several uploaded parts are one episode, joined in the order they were submitted. A keyframe every
 * 2 s (at 30 fps), so the episode can copy this picture whatever the trim (render.ts).
 */
async function joinParts(parts: MediaInput[], output: string, ctx: JobContext, signal: AbortSignal): Promise<MediaInput> {
  const first = parts[0].info.video ?? { width: 1280, height: 720 };
  const inputs = parts.flatMap((p) => inputArgs('video', p.file));
  const chains = parts.map((p, i) => {
    const audio = p.info.hasAudio
      ? `[${i}:a]aresample=48000,aformat=channel_layouts=stereo[a${i}]`
      : `anullsrc=r=48000:cl=stereo,atrim=duration=${p.info.durationSeconds.toFixed(3)}[a${i}]`;
    return `[${i}:v]scale=${first.width}:${first.height}:force_original_aspect_ratio=decrease,pad=${first.width}:${first.height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30,format=yuv420p[v${i}];${audio}`;
  });
  const graph = `${chains.join(';')};${parts.map((_, i) => `[v${i}][a${i}]`).join('')}concat=n=${parts.length}:v=1:a=1[v][a]`;
  await ffmpeg(
    [...inputs, '-filter_complex', graph, '-map', '[v]', '-map', '[a]', '-c:v', 'libx264', '-preset', ctx.config.encode.preset, '-crf', '18', '-g', '60', '-c:a', 'aac', '-b:a', '192k', output],
    signal,
  );
  return { file: output, info: await probe(output, signal) };
}

function evenlySpaced(durationSeconds: number, count: number): ClipRange[] {
  // Without sound there is nothing to rank: clips are spread evenly.
  const length = Math.min(30, durationSeconds / Math.max(1, count));
  return Array.from({ length: Math.max(0, Math.min(count, Math.floor(durationSeconds / 5))) }, (_, i) => {
    const start = (i * durationSeconds) / count;
    return { start, end: Math.min(durationSeconds, start + length), score: 0, startsAtPause: false, endsAtPause: false };
  });
}

/** The submission job: probed, analysed, and planned in pieces for the pool (pieces.ts). */
export async function processSubmission(ctx: JobContext, boss: PieceQueue, processingId: string, jobSignal: AbortSignal): Promise<void> {
  const job = await ctx.store.load(processingId);
  if (!job || job.status === 'delivered' || job.status === 'failed') return;
  if (!job.userId) throw new MediaError('The subscriber no longer exists.', true);
  const userId = job.userId;
  await withTimeLimit(job, jobSignal, (signal) => processJob(ctx, job, userId, signal, boss));
}

async function processJob(ctx: JobContext, job: SubmissionJob, userId: string, signal: AbortSignal, boss: PieceQueue): Promise<void> {
  const { store, config } = ctx;
  await store.start(job.id, config.workerName);
  // Without a usable Google connection nothing can be delivered: say so before any rendering.
  await ctx.tokens.accessToken(userId, 'google');

  await mkdir(config.tempDir, { recursive: true });
  const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-`));
  try {
    await store.progress(job.id, 'reading the upload', 2);
    const parts: MediaInput[] = [];
    for (const objectPath of job.files) {
      const part = await uploadedPart(ctx, job, objectPath, signal);
      if (!part.info.video) throw new MediaError(`${path.basename(objectPath)} has no video`, true);
      const problem = videoLimitProblem(path.basename(objectPath), part.info, job.limits, null);
      if (problem) throw new MediaError(problem, true);
      parts.push(part);
    }
    const tooLong = episodeLengthProblem(
      parts.reduce((sum, part) => sum + part.info.durationSeconds, 0),
      job.limits,
    );
    if (tooLong) throw new MediaError(tooLong, true);
    const main = parts.length === 1 ? parts[0] : await joinParts(parts, path.join(dir, 'joined.mp4'), ctx, signal);
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
      main === parts[0]
        ? { bucket: EPISODES_BUCKET, path: job.files[0] }
        : { bucket: PROCESSING_PIECES_BUCKET, path: pieceObjectPath(job.id, planId, 'main.mp4') };
    if (mainObject.bucket === PROCESSING_PIECES_BUCKET) await uploadObject(config, mainObject.bucket, mainObject.path, main.file, 'video/mp4', signal);
    // What the picture's pieces need; the words, the sound's measurement and the clips follow.
    const planSoFar: SubmissionPlan = {
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
    };
    const queued = await queuePictureFirst(ctx, boss, job, planSoFar);

    // The words (issue 27): never fatal; without them the clips are still made, by sound.
    await store.progress(job.id, 'transcribing', 10);
    const sound = main.info.hasAudio ? await copySoundTrack(main, path.join(dir, 'sound.mov'), signal) : main;
    const words = await transcribeStage(config.transcription, job, sound, { start, end }, dir, signal);
    // A blog post an earlier attempt put on WordPress stays recorded (it is never posted twice).
    const content = { ...words.content, blogPost: job.content?.blogPost ?? null };
    await store.setContent(job.id, content);

    // Clips are chosen on the words and the sound, and named from the words (none: by sound); the
    // episode's title is made from its keywords when the subscriber's is only the file name.
    const transcript: Transcript | null = words.transcript;
    const keywords = episodeKeywords(transcript, transcript ? transcriptKeywords(transcript) : undefined);
    const title = episodeTitle(job.title, job.files[0] ?? '', keywords);

    await store.progress(job.id, 'analysing', 12);
    // The analysis also measures the loudness the episode and every clip are normalised with.
    const analysis = main.info.hasAudio ? await analyseAudio(sound.file, start, end - start, signal) : null;
    const clips = analysis ? chooseClips(transcript, analysis, job.clipsPerEpisode, keywords) : evenlySpaced(end - start, job.clipsPerEpisode);

    await store.progress(job.id, 'planning the pieces', 14);
    await savePlan(ctx, boss, job, { ...planSoFar, title, loudness: analysis?.loudness ?? null, clips, transcript, keywords }, queued);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Pieces the join downloads side by side. */
const PIECE_DOWNLOADS_AT_ONCE = 4;

/** `run` over every item, at most `atOnce` at a time; the answers in the items' order. One failing starts no more. */
async function inTurns<T, R>(items: T[], atOnce: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  let next = 0;
  let failed = false;
  const runner = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      answers[i] = await run(items[i]).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, runner));
  return answers;
}

/** The join: the episode put together from its pieces, and everything delivered. */
export async function joinSubmission(ctx: JobContext, data: PieceJobData, jobSignal: AbortSignal, retry: boolean): Promise<void> {
  const job = await ctx.store.load(data.processingId);
  if (!job || job.status === 'delivered' || job.status === 'failed' || !job.userId) return;
  const plan = await loadPlan(ctx, job.id, data.planId);
  if (!plan) return;
  const userId = job.userId;
  await withTimeLimit(job, jobSignal, async (signal) => {
    const { store, config } = ctx;
    await store.jobStarted(job.id, config.workerName, 'joining the episode', retry);
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-join-`));
    try {
      const objectOf = (piece: PieceSpec) => pieceObjectPath(job.id, plan.planId, pieceFileName(piece));
      const fetchPiece = async (piece: PieceSpec, file = path.join(dir, pieceFileName(piece))) => {
        await downloadObject(config, PROCESSING_PIECES_BUCKET, objectOf(piece), file, signal);
        return file;
      };
      const pieces = planPieces(plan);
      const episodePieces = pieces.slice(0, pieces.length - plan.clips.length);
      // The clips go to Drive from disk: downloaded a few at a time (each waits on a Storage round trip).
      const clipFiles = await inTurns(pieces.slice(episodePieces.length), PIECE_DOWNLOADS_AT_ONCE, (piece) => fetchPiece(piece));
      const base = safeName(plan.title);
      const rendered: { record: OutputRecord; file: string; mimeType: string }[] = [];
      const episodeFile = path.join(dir, 'episode.mp4');
      if (plan.episode.copied) {
        await fetchPiece(episodePieces[0], episodeFile);
        ctx.log(`episode ${job.id}: picture copied from ${plan.episode.start.toFixed(3)} s (asked ${plan.start} s)`);
      } else {
        // ffmpeg reads the segments and the sound from Storage as it writes the episode: the
        // whole picture is not first copied to disk (decisions.md, "The join's transfers").
        const urls = await signedForJob(ctx, job, PROCESSING_PIECES_BUCKET, episodePieces.map(objectOf), signal);
        const segments = plan.episode.layout.video.length;
        await joinEpisode({ videoFiles: urls.slice(0, segments), audioFile: urls[segments], dir, output: episodeFile, signal });
      }
      rendered.push({ record: await outputRecord(episodeFile, `${base}.mp4`, 'episode', signal), file: episodeFile, mimeType: 'video/mp4' });
      const { transcript, keywords, clips } = plan;
      for (const [i, clip] of clips.entries()) {
        const file = clipFiles[i];
        const name = `${base} - clip ${String(i + 1).padStart(2, '0')}.mp4`;
        const record = await outputRecord(file, name, 'clip', signal);
        const copy = copyForClip(transcript, clip, keywords, plan.title, name.replace(/\.mp4$/, ''));
        rendered.push({
          record: { ...record, startSeconds: clip.start, cutAtPauses: clip.startsAtPause && clip.endsAtPause, cutAtSentences: !!clip.sentences, title: copy.title, posts: copy.posts },
          file,
          mimeType: 'video/mp4',
        });
      }
      await deliver(ctx, job, userId, plan, rendered, dir, signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The pieces are not needed once delivered; what a failure here leaves, storage-cleanup removes a day later.
    await deleteObjects(config, PROCESSING_PIECES_BUCKET, planObjectPaths(job.id, plan), signal).catch((error: Error) => ctx.log(`removing pieces of ${job.id}: ${error.message}`));
    await dropPlan(ctx, job.id);
  });
}

/** Captions, show notes and blog post written; every file in Drive; the posts scheduled; delivered. */
async function deliver(
  ctx: JobContext,
  job: SubmissionJob,
  userId: string,
  plan: SubmissionPlan,
  rendered: { record: OutputRecord; file: string; mimeType: string }[],
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const { store, config } = ctx;
  const { transcript, clips, title } = plan;
  const base = safeName(title);
  let content: EpisodeContent = job.content ?? emptyContent();
  if (transcript) {
    await store.progress(job.id, 'writing captions and show notes', 79);
    const introSeconds = plan.episode.copied ? plan.start - plan.episode.start : plan.episode.layout.introFrames / plan.episode.layout.fps;
    const written = await writeContentFiles({
      dir,
      base,
      episodeTitle: title,
      transcript,
      content,
      // A copied picture may start a little before `start` (on its keyframe): the words move with it.
      episode: { name: rendered[0].record.name, durationSeconds: rendered[0].record.durationSeconds, introSeconds },
      clips: clips.map((clip, i) => ({
        name: rendered[i + 1].record.name,
        durationSeconds: rendered[i + 1].record.durationSeconds,
        from: clip.start,
        to: clip.end,
        introSeconds: plan.clipIntroSeconds,
      })),
    });
    rendered.push(...written.files);
    content = written.content;
  }
  await store.progress(job.id, 'uploading to Google Drive', 80);
  const token = await ctx.tokens.accessToken(userId, 'google');
  const drive = new DriveClient(config.googleApiBase, token);
  // Every folder and file is tagged with the processing row (and the output's name): a worker
  // killed after Drive made one but before the row recorded it finds it on the next attempt.
  const tag = { castloopProcessingId: job.id };
  let folderId = job.driveFolderId;
  if (!folderId) {
    const day = job.submittedAt.toISOString().slice(0, 10);
    const folderTag = { ...tag, castloopOutput: 'folder' };
    const folder = (await drive.find(folderTag, null, signal)) ?? (await drive.createFolder(`${base} (${day})`, folderTag, signal));
    folderId = folder.id;
    await store.setDriveFolder(job.id, folder.id, folder.webViewLink ?? null);
  }
  // Files a previous attempt already delivered keep their Drive ids and are not sent again.
  const delivered = new Map(job.outputs.filter((o) => o.driveFileId).map((o) => [o.name, o]));
  const outputs: OutputRecord[] = rendered.map((r) => {
    const before = delivered.get(r.record.name);
    return { ...r.record, driveFileId: before?.driveFileId, driveUrl: before?.driveUrl };
  });
  const uploadPending = async () => {
    for (const [i, r] of rendered.entries()) {
      if (outputs[i].driveFileId) continue;
      const fileTag = { ...tag, castloopOutput: r.record.name };
      const uploaded = (await drive.find(fileTag, folderId, signal)) ?? (await drive.upload(r.file, r.record.name, folderId, r.mimeType, fileTag, signal));
      // Drive's own link to the file (webViewLink): the episode page links and previews through it.
      outputs[i] = { ...outputs[i], driveFileId: uploaded.id, driveUrl: uploaded.webViewLink };
      await store.setOutputs(job.id, outputs);
      await store.progress(job.id, 'uploading to Google Drive', 80 + (15 * (i + 1)) / rendered.length);
    }
  };
  await uploadPending();

  // The blog post links to the episode in Drive, so it is written once the episode is there.
  if (transcript) {
    const episodeOutput = outputs[0];
    const link = episodeOutput.driveUrl ?? `https://drive.google.com/file/d/${episodeOutput.driveFileId}/view`;
    const blog = await writeBlogPost(dir, base, title, transcript, content, link);
    if (blog) {
      rendered.push({ record: { name: blog.name, kind: 'blog post', durationSeconds: 0, width: 0, height: 0 }, file: blog.file, mimeType: 'text/markdown' });
      const before = delivered.get(blog.name);
      outputs.push({ ...rendered[rendered.length - 1].record, driveFileId: before?.driveFileId, driveUrl: before?.driveUrl });
      await uploadPending();
      await store.progress(job.id, 'publishing the blog post', 96);
      content = await publishBlogStage(config, ctx.db, ctx.tokens, job, blog.post, content);
    }
  }
  await store.setContent(job.id, content);

  if (job.postAutomatically) {
    await store.progress(job.id, 'scheduling posts', 97);
    await schedulePosts(ctx.db, job, outputs.filter((o) => o.kind === 'clip'));
  }
  await store.delivered(job.id);
}

async function outputRecord(file: string, name: string, kind: OutputRecord['kind'], signal: AbortSignal): Promise<OutputRecord> {
  const info: MediaInfo = await probe(file, signal);
  return {
    name,
    kind,
    durationSeconds: Math.round(info.durationSeconds * 100) / 100,
    width: info.video?.width ?? 0,
    height: info.video?.height ?? 0,
  };
}
