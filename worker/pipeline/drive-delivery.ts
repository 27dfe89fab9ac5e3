// Files into the subscriber's Drive, once each: the episode's folder (made by the submission job,
// before any piece can deliver into it), a clip as soon as its piece is rendered (issue 45: the
// first clip is ready for review while the rest of the episode is still being made), and the
// join's files. Every folder and file is tagged with the processing row (and the output's name):
// a worker killed after Drive made one but before the row recorded it finds it on the next
// attempt, and a file an earlier piece or attempt delivered keeps its Drive id and is not sent again.
import type { OutputKind, StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import type { SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { probe } from '../media/ffmpeg.ts';
import { DriveClient } from '../platforms/drive.ts';
import { copyForClip } from './clip-words.ts';
import type { JobContext } from './job-context.ts';
import type { DeliveredFile } from './manifest.ts';
import type { ClipRecord } from './store.ts';

/** A file name Drive and every desktop accept: no path separators or control characters. */
export const safeName = (title: string) =>
  [...title].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? ' ' : ch)).join('').replace(/\s+/g, ' ').trim().slice(0, 120) || 'Episode';

/**
 * The episode's folder in Drive: its title and day, and a few characters of the episode's id, so
 * two episodes of one title and day (a resubmission, a second take) never share a folder's name.
 */
const driveFolderName = (base: string, job: Pick<ProcessingJob, 'submittedAt' | 'episodeId' | 'id'>) =>
  `${base} (${job.submittedAt.toISOString().slice(0, 10)}, ${(job.episodeId ?? job.id).slice(0, 4)})`;

/** The plan's clip `index` (from 0) by its name in Drive. */
export const clipFileName = (base: string, index: number) => `${base} - clip ${String(index + 1).padStart(2, '0')}.mp4`;

/** A rendered video as the delivery records it: its name, kind, length and frame. */
export async function videoFile(file: string, name: string, kind: OutputKind, signal: AbortSignal): Promise<DeliveredFile> {
  const info = await probe(file, signal);
  return {
    output: { name, kind, durationSeconds: Math.round(info.durationSeconds * 100) / 100, width: info.video?.width ?? 0, height: info.video?.height ?? 0 },
    file,
    mimeType: 'video/mp4',
  };
}

/** The plan's clip `index` as public.episode_clips records it, with its rendered file. */
export function clipRecord(plan: SubmissionPlan, index: number, delivered: DeliveredFile): ClipRecord {
  const moment = plan.clips[index];
  // The writing engine's texts for the clip; a clip without words is named by its file.
  const copy = plan.writing?.clips[index] ?? copyForClip(plan.transcript, moment, plan.keywords, plan.title, delivered.output.name.replace(/\.mp4$/, ''));
  return {
    position: index + 1,
    startSeconds: moment.start,
    endSeconds: moment.end,
    ...(moment.sentences ? { firstSentence: moment.sentences.first, endSentence: moment.sentences.end } : {}),
    // A plan made before clips had reasons scored on another scale: its clips have neither.
    ...(moment.reason ? { score: moment.score, reason: moment.reason } : {}),
    title: copy.title,
    posts: copy.posts,
    fileName: delivered.output.name,
    durationSeconds: delivered.output.durationSeconds,
    width: delivered.output.width,
    height: delivered.output.height,
  };
}

/**
 * The episode's Drive folder (found by its tag, or made) and a `put` that sends one file there
 * and records it on the processing row.
 */
export async function episodeDrive(ctx: JobContext, job: ProcessingJob, userId: string, base: string, signal: AbortSignal) {
  const { store, config } = ctx;
  const drive = new DriveClient(config.googleApiBase, await ctx.tokens.accessToken(userId, 'google'));
  const tag = { castloopProcessingId: job.id };
  let folderId = job.driveFolderId;
  if (!folderId) {
    const folderTag = { ...tag, castloopOutput: 'folder' };
    const folder = (await drive.find(folderTag, null, signal)) ?? (await drive.createFolder(driveFolderName(base, job), folderTag, signal));
    folderId = folder.id;
    await store.driveFolder(job.id, folder.id, folder.webViewLink ?? null);
  }
  const inFolder = folderId;
  const before = new Map(job.outputs.filter((o) => o.driveFileId).map((o) => [o.name, o]));
  return {
    async put(delivered: DeliveredFile): Promise<StoredOutput> {
      const earlier = before.get(delivered.output.name);
      let output: StoredOutput = { ...delivered.output, driveFileId: earlier?.driveFileId, driveUrl: earlier?.driveUrl };
      if (!output.driveFileId) {
        const fileTag = { ...tag, castloopOutput: delivered.output.name };
        const uploaded = (await drive.find(fileTag, inFolder, signal)) ?? (await drive.upload(delivered.file, delivered.output.name, inFolder, delivered.mimeType, fileTag, signal));
        // Drive's own link to the file (webViewLink): the episode page links and previews through it.
        output = { ...output, driveFileId: uploaded.id, driveUrl: uploaded.webViewLink };
      }
      await store.output(job.id, output);
      return output;
    },
  };
}

/**
 * A clip rendered by its piece, recorded and put in Drive at once: the review screen shows it
 * while the episode's other pieces are still being made, and the join takes it as delivered.
 * Answers its record's id and its output (null for a submission without a subscriber: no Drive).
 */
export async function deliverClip(
  ctx: JobContext,
  job: ProcessingJob,
  plan: SubmissionPlan,
  index: number,
  file: string,
  signal: AbortSignal,
): Promise<{ id: string; output: StoredOutput } | null> {
  if (!job.userId) return null;
  const base = safeName(plan.title);
  const delivered = await videoFile(file, clipFileName(base, index), 'clip', signal);
  const id = (await ctx.store.clips(job.id, [clipRecord(plan, index, delivered)])).get(index + 1);
  if (!id) throw new Error(`clip ${index + 1} of ${job.id} was not recorded`);
  const drive = await episodeDrive(ctx, job, job.userId, base, signal);
  const output = await drive.put({ ...delivered, output: { ...delivered.output, clipId: id } });
  if (output.driveFileId) await ctx.store.clipFile(id, output.driveFileId, output.driveUrl ?? null);
  return { id, output };
}
