// What the subscriber's edits ask of the worker after delivery (issue 41, item 5), through the
// same queue: clips rendered again (their moment, or the words of their burned-in captions,
// changed), and the words' files written again (the transcript, the captions, the show notes, the
// blog post). Each replaces its file in Drive in place (same file, same link), so a post not yet
// out takes the new one; the public feed's transcript follows. Only what the edit touched is made.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { EPISODES_BUCKET, PODCAST_FEEDS_BUCKET, podcastEpisodeObjectPath } from '../../supabase/functions/_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import type { StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { PROCESSING_PIECES_BUCKET } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import type { SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { transcriptSlice } from '../content/caption-files.ts';
import { ProcessingFailure } from '../failure.ts';
import { probe, type MediaInput } from '../media/ffmpeg.ts';
import { joinParts } from '../media/render.ts';
import { DriveClient } from '../platforms/drive.ts';
import { downloadObject, uploadObject } from '../platforms/storage.ts';
import { textFiles, writeEpisodeTexts } from './content-stage.ts';
import type { JobContext } from './job-context.ts';
import type { RequestJobData } from './jobs.ts';
import type { DeliveredFile } from './manifest.ts';
import { episodeIntroSeconds, signedForJob, withTimeLimit } from './plan.ts';
import { renderClipPiece } from './pieces.ts';
import type { CurrentClip } from './store.ts';

/** The delivered episode's own file name stem (its outputs' names start with it). */
const stemOf = (job: ProcessingJob) => job.outputs.find((o) => o.kind === 'episode')?.name.replace(/\.mp4$/, '') ?? null;

/** One request of the subscriber's edits; a request of a row no longer delivered is dropped. */
export async function runRequest(ctx: JobContext, data: RequestJobData, jobSignal: AbortSignal): Promise<void> {
  const { store } = ctx;
  const job = await store.load(data.processingId);
  if (job && job.status === 'delivered' && job.userId) {
    const plan = await store.deliveredPlan(job.id);
    if (plan === 'outdated') throw new ProcessingFailure('This episode was processed by an older version of Castloop: retry it to edit its clips.', true);
    const transcript = await store.currentTranscript(job.id);
    if (plan && transcript) {
      const userId = job.userId;
      await withTimeLimit(job, jobSignal, async (signal) => {
        await mkdir(ctx.config.tempDir, { recursive: true });
        const dir = await mkdtemp(path.join(ctx.config.tempDir, `${job.id}-${data.kind}-`));
        try {
          const drive = new DriveClient(ctx.config.googleApiBase, await ctx.tokens.accessToken(userId, 'google'));
          if (data.kind === 'rerender') await rerenderClips(ctx, { job, plan, transcript, drive, dir, signal }, data.clipIds);
          else await rewriteTexts(ctx, { job, plan, transcript, drive, dir, signal });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });
    }
  }
  await store.requestDone(data.requestId);
}

interface Rework {
  job: ProcessingJob;
  plan: SubmissionPlan;
  transcript: Transcript;
  drive: DriveClient;
  dir: string;
  signal: AbortSignal;
}

/** A file of the delivery replaced in Drive (in place, when the earlier one is there) and recorded. */
async function replaceOutput(ctx: JobContext, work: Rework, delivered: DeliveredFile): Promise<StoredOutput> {
  const earlier = work.job.outputs.find((o) => o.name === delivered.output.name);
  if (!earlier?.driveFileId) throw new ProcessingFailure(`${delivered.output.name} is not in Drive: retry the episode`, false);
  const replaced = await work.drive.replace(earlier.driveFileId, delivered.file, delivered.mimeType, work.signal);
  const output: StoredOutput = { ...earlier, ...delivered.output, driveFileId: replaced.id, driveUrl: replaced.webViewLink ?? earlier.driveUrl };
  await ctx.store.output(work.job.id, output);
  return output;
}

/** The episode as the clips are cut from: the subscriber's file, or their parts joined again. */
async function episodeSource(ctx: JobContext, work: Rework): Promise<MediaInput> {
  const { job, plan, dir, signal } = work;
  if (plan.main.bucket !== PROCESSING_PIECES_BUCKET) {
    const urls = await signedForJob(ctx, job, plan.main.bucket, [plan.main.path], signal);
    return { file: urls.get(plan.main.path) ?? plan.main.path, info: plan.main.info };
  }
  // The joined parts were a piece of the processing, removed once delivered: joined again.
  const urls = await signedForJob(ctx, job, EPISODES_BUCKET, job.files, signal);
  const parts = await Promise.all(job.files.map(async (file) => ({ file: urls.get(file) ?? file, info: await probe(urls.get(file) ?? file, signal) })));
  return joinParts(parts, path.join(dir, 'joined.mp4'), ctx.config.encode, signal);
}

async function rerenderClips(ctx: JobContext, work: Rework, clipIds: string[]): Promise<void> {
  const { job, plan, transcript, dir, signal } = work;
  const clips = await ctx.store.currentClips(job.id);
  const wanted = clipIds.map((id) => clips.get(id)).filter((clip): clip is CurrentClip => !!clip && clip.review_state !== 'dropped');
  if (!wanted.length) return;
  const main = await episodeSource(ctx, work);
  const logo = plan.brand.logo ? path.join(dir, 'logo.png') : undefined;
  if (logo && plan.brand.logo) await downloadObject(ctx.config, BRAND_ASSETS_BUCKET, plan.brand.logo, logo, signal);
  for (const clip of wanted) {
    const started = Date.now();
    const output = path.join(dir, `clip-${clip.position}.mp4`);
    const moment = { start: clip.start_seconds, end: clip.end_seconds, score: 0, reason: '', startsAtPause: true, endsAtPause: true };
    await renderClipPiece(ctx, job, { ...plan, transcript }, moment, { main, logo, dir, output, signal });
    const info = await probe(output, signal);
    const durationSeconds = Math.round(info.durationSeconds * 100) / 100;
    const video = await replaceOutput(ctx, work, { output: { name: clip.file_name, kind: 'clip', durationSeconds, width: info.video?.width ?? 0, height: info.video?.height ?? 0, clipId: clip.id }, file: output, mimeType: 'video/mp4' });
    await ctx.store.clipRendered(clip.id, video.driveFileId ?? '', video.driveUrl ?? null, durationSeconds);
    // The clip's caption files follow its words.
    const texts = textFiles(dir);
    await texts.captions(clip.file_name, durationSeconds, transcriptSlice(transcript, clip.start_seconds, clip.end_seconds, plan.clipIntroSeconds));
    for (const text of texts.files) await replaceOutput(ctx, work, text);
    ctx.log(`clip ${clip.position} of ${job.id} rendered again in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function rewriteTexts(ctx: JobContext, work: Rework): Promise<void> {
  const { job, plan, transcript, dir, signal } = work;
  const stem = stemOf(job);
  const notes = job.content?.showNotes;
  if (!stem || !notes) return;
  const texts = textFiles(dir);
  const episode = job.outputs.find((o) => o.kind === 'episode');
  const durationSeconds = episode?.durationSeconds ?? transcript.durationSeconds;
  await writeEpisodeTexts(texts, { base: stem, episodeTitle: job.title, transcript, notes, episode: { name: `${stem}.mp4`, durationSeconds, introSeconds: episodeIntroSeconds(plan) } });
  const blog = job.content?.blogPost;
  if (blog) await texts.write(`${stem} - blog post.md`, 'blog post', blog.markdown, 'text/markdown', 0);
  for (const text of texts.files) if (job.outputs.some((o) => o.name === text.output.name)) await replaceOutput(ctx, work, text);
  // The show's feed serves the episode's WebVTT transcript too.
  const vtt = texts.files.find((text) => text.output.name === `${stem}.vtt`);
  if (vtt && job.episodeId) {
    await uploadObject(ctx.config, PODCAST_FEEDS_BUCKET, podcastEpisodeObjectPath(job.episodeId, job.id, 'vtt'), vtt.file, 'text/vtt', signal);
  }
}
