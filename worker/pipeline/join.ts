// The join (docs/decisions.md "Processing in pieces"): the episode put together from its pieces,
// the clips taken as their pieces delivered them (public.episode_clips, in Drive), the files made
// from the words written, the rest delivered to the subscriber's Drive, and the submission marked
// delivered (which schedules the posts). What it delivers is a manifest addressed by kind and id (the episode, each clip by its
// record's id, the text files by name), never by position in a list. Safe to run again: files an
// earlier attempt put in Drive are found by their tags and not sent twice.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EpisodeContent } from '../../supabase/functions/_shared/domain/episode-content.ts';
import { PODCAST_FEEDS_BUCKET, podcastEpisodeObjectPath } from '../../supabase/functions/_shared/domain/episodes.ts';
import type { StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { PROCESSING_PIECES_BUCKET } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';
import type { SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { extractPodcastAudio, joinEpisode } from '../media/render.ts';
import { deleteObjects, downloadObject, uploadObject } from '../platforms/storage.ts';
import { clipFileName, deliverClip, episodeDrive, safeName, videoFile } from './drive-delivery.ts';
import { emptyContent, writeBlogPost, writeContentFiles } from './content-stage.ts';
import type { JobContext } from './job-context.ts';
import type { PieceJobData } from './jobs.ts';
import type { DeliveredClip, DeliveryManifest } from './manifest.ts';
import { currentPlan, episodeIntroSeconds, pieceFileName, pieceObjectPath, planObjectPaths, signedForJob, withTimeLimit, type PieceSpec } from './plan.ts';
import { inTurns } from '../in-turns.ts';

/** Pieces the join downloads side by side. */
const PIECE_DOWNLOADS_AT_ONCE = 4;

/** The join: the episode put together from its pieces, and everything delivered. */
export async function joinSubmission(ctx: JobContext, data: PieceJobData, jobSignal: AbortSignal, retry: boolean): Promise<void> {
  const job = await ctx.store.load(data.processingId);
  if (!job || job.status === 'delivered' || job.status === 'failed' || !job.userId) return;
  const plan = await currentPlan(ctx, job.id, data.planId);
  if (!plan) return;
  const userId = job.userId;
  await withTimeLimit(job, jobSignal, async (signal) => {
    const { store, config } = ctx;
    await store.pieceStarted(job.id, config.workerName, 'joining the episode', retry);
    // The delivery needs Google Drive: a connection lost meanwhile stops here, before the joining.
    await ctx.tokens.accessToken(userId, 'google');
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `${job.id}-join-`));
    try {
      const manifest = await assemble(ctx, job, plan, dir, signal);
      await deliver(ctx, job, userId, plan, manifest, dir, signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The pieces are not needed once delivered (what a failure here leaves, storage-cleanup removes a
    // day later); the plan stays: a clip rendered again after an edit is rendered from it.
    await deleteObjects(config, PROCESSING_PIECES_BUCKET, planObjectPaths(job.id, plan), signal).catch((error: Error) => ctx.log(`removing pieces of ${job.id}: ${error.message}`));
  });
}

/** The episode joined from its pieces and the clips fetched and recorded: the manifest without its text files yet. */
async function assemble(ctx: JobContext, job: ProcessingJob, plan: SubmissionPlan, dir: string, signal: AbortSignal): Promise<DeliveryManifest> {
  const { config } = ctx;
  const objectOf = (piece: PieceSpec) => pieceObjectPath(job.id, plan.planId, pieceFileName(piece));
  const fetchPiece = async (piece: PieceSpec, file = path.join(dir, pieceFileName(piece))) => {
    await downloadObject(config, PROCESSING_PIECES_BUCKET, objectOf(piece), file, signal);
    return file;
  };
  const base = safeName(plan.title);
  // Each clip's piece delivered it (recorded, in Drive: deliverClip) and the row holds it; one it
  // does not (a piece of an older worker) is delivered here from its piece.
  const clips = await inTurns(plan.clips, PIECE_DOWNLOADS_AT_ONCE, async (moment, index): Promise<DeliveredClip> => {
    const output = job.outputs.find((o) => o.name === clipFileName(base, index) && o.driveFileId && o.clipId);
    if (output?.clipId) return { id: output.clipId, moment, output };
    const delivered = await deliverClip(ctx, job, plan, index, await fetchPiece({ kind: 'clip', index }), signal);
    if (!delivered) throw new Error(`clip ${index + 1} of ${job.id} has no subscriber's Drive`);
    return { ...delivered, moment };
  });

  const episodeFile = path.join(dir, 'episode.mp4');
  if (plan.episode.copied) {
    await fetchPiece({ kind: 'copy' }, episodeFile);
    ctx.log(`episode ${job.id}: picture copied from ${plan.episode.start.toFixed(3)} s (asked ${plan.start} s)`);
  } else {
    // ffmpeg reads the segments and the sound from Storage as it writes the episode: the whole
    // picture is not first copied to disk (decisions.md, "The join's transfers").
    const segments = plan.episode.layout.video.map((_, index) => objectOf({ kind: 'video', index }));
    const sound = objectOf({ kind: 'audio' });
    const urls = await signedForJob(ctx, job, PROCESSING_PIECES_BUCKET, [...segments, sound], signal);
    const url = (objectPath: string) => urls.get(objectPath) ?? objectPath;
    await joinEpisode({ videoFiles: segments.map(url), audioFile: url(sound), dir, output: episodeFile, signal });
  }
  const episode = await videoFile(episodeFile, `${base}.mp4`, 'episode', signal);

  return { episode, clips, texts: [] };
}

/** Captions, show notes and blog post written; every file in Drive; delivered (and the posts scheduled). */
async function deliver(
  ctx: JobContext,
  job: ProcessingJob,
  userId: string,
  plan: SubmissionPlan,
  manifest: DeliveryManifest,
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const { store } = ctx;
  const { transcript, title } = plan;
  const base = safeName(title);
  let content: EpisodeContent = job.content ?? emptyContent();
  const { writing } = plan;
  if (transcript && writing) {
    await store.progress(job.id, 'writing captions and show notes', 79);
    const introSeconds = episodeIntroSeconds(plan);
    const written = await writeContentFiles({
      dir,
      base,
      episodeTitle: title,
      transcript,
      notes: writing.notes,
      content,
      // A copied picture may start a little before `start` (on its keyframe): the words move with it.
      episode: { name: manifest.episode.output.name, durationSeconds: manifest.episode.output.durationSeconds, introSeconds },
      clips: manifest.clips.map((clip) => ({
        name: clip.output.name,
        durationSeconds: clip.output.durationSeconds,
        from: clip.moment.start,
        to: clip.moment.end,
        introSeconds: plan.clipIntroSeconds,
      })),
    });
    manifest.texts.push(...written.files);
    content = written.content;
  }
  await store.progress(job.id, 'uploading to Google Drive', 80);
  const drive = await episodeDrive(ctx, job, userId, base, signal);
  // The clips are in Drive already: their pieces sent them.
  const files = [manifest.episode, ...manifest.texts];
  const sent = new Map<string, StoredOutput>();
  for (const [i, delivered] of files.entries()) {
    const output = await drive.put(delivered);
    sent.set(output.name, output);
    await store.progress(job.id, 'uploading to Google Drive', 80 + (15 * (i + 1)) / files.length);
  }

  // The blog post links to the episode in Drive, so it is written once the episode is there.
  const episodeOutput = sent.get(manifest.episode.output.name);
  if (transcript && writing && episodeOutput?.driveFileId) {
    const link = episodeOutput.driveUrl ?? `https://drive.google.com/file/d/${episodeOutput.driveFileId}/view`;
    const blog = await writeBlogPost(dir, base, writing.article, link);
    await drive.put({ output: { name: blog.name, kind: 'blog post', durationSeconds: 0, width: 0, height: 0 }, file: blog.file, mimeType: 'text/markdown' });
    // It reaches WordPress when the subscriber has reviewed it (a post of kind 'article'); one an
    // earlier attempt put there stays recorded.
    content = { ...content, blogPost: { title: blog.post.title, markdown: blog.post.markdown, wordpress: job.content?.blogPost?.wordpress ?? null } };
  }
  await store.content(job.id, content);
  // The words as the episode page shows them and the subscriber corrects them.
  if (transcript) await store.transcript(job.id, transcript);
  await publishPodcastFiles(ctx, job, manifest, dir, signal);
  await store.progress(job.id, 'scheduling posts', 97);
  await store.delivered(job.id);
}

/**
 * The episode's sound (an M4A) and its WebVTT transcript in the public feeds bucket, recorded for
 * the show's feed (issue 44). An administrator's resubmission of files alone has no episode: no feed item.
 */
async function publishPodcastFiles(ctx: JobContext, job: ProcessingJob, manifest: DeliveryManifest, dir: string, signal: AbortSignal): Promise<void> {
  if (!job.episodeId) return;
  const audio = path.join(dir, 'podcast.m4a');
  await extractPodcastAudio(manifest.episode.file, audio, signal);
  const audioPath = podcastEpisodeObjectPath(job.episodeId, job.id, 'm4a');
  await uploadObject(ctx.config, PODCAST_FEEDS_BUCKET, audioPath, audio, 'audio/mp4', signal);
  const vtt = manifest.texts.find((text) => text.output.captionsFor === manifest.episode.output.name && text.output.name.endsWith('.vtt'));
  const transcriptPath = vtt ? podcastEpisodeObjectPath(job.episodeId, job.id, 'vtt') : null;
  if (vtt && transcriptPath) await uploadObject(ctx.config, PODCAST_FEEDS_BUCKET, transcriptPath, vtt.file, 'text/vtt', signal);
  await ctx.store.podcastFiles(job.id, {
    audioPath,
    audioBytes: (await stat(audio)).size,
    durationSeconds: manifest.episode.output.durationSeconds,
    transcriptPath,
  });
}
