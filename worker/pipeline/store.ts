// The processing row's state, read and changed only through SQL functions (private.processing_*,
// private.record_*: supabase/migrations/20261128110100_processing_state.sql), as the api changes
// state through its own. What it reads back is parsed against the domain's schemas.
import type pg from 'pg';
import { z } from 'zod';
import type { EpisodeContent } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { ClipPosts } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import type { StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import { parseProcessingJob, type ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import { parsePlan, type SubmissionPlan } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { transcriptSchema, type Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { clipPostsSchema } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import type { WritingSpend } from '../writing/stage.ts';

/** A clip as the join records it before its file goes to Drive. */
export interface ClipRecord {
  position: number;
  startSeconds: number;
  endSeconds: number;
  firstSentence?: number;
  endSentence?: number;
  /** 0..1, and why the moment was chosen. */
  score?: number;
  reason?: string;
  title: string;
  posts: ClipPosts;
  fileName: string;
  durationSeconds: number;
  width: number;
  height: number;
}

/** A clip as public.episode_clips holds it now. */
const currentClipSchema = z.object({
  id: z.uuid(),
  position: z.number().int(),
  start_seconds: z.coerce.number(),
  end_seconds: z.coerce.number(),
  title: z.string(),
  posts: clipPostsSchema,
  file_name: z.string(),
  drive_file_id: z.string().nullable(),
  review_state: z.enum(['pending', 'approved', 'dropped']),
});
export type CurrentClip = z.infer<typeof currentClipSchema>;

const clipIdsSchema = z.array(z.object({ id: z.uuid(), position: z.number().int() }));
const pieceCountSchema = z.object({ done: z.coerce.number(), total: z.coerce.number() }).nullable();

/** Runs SQL on the pool, or on a client whose transaction the caller holds. */
type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export class ProcessingStore {
  constructor(private readonly db: pg.Pool) {}

  private async call(sql: string, values: unknown[], on: Queryable = this.db): Promise<unknown> {
    const { rows } = await on.query<{ result: unknown }>(`select ${sql} as result`, values);
    return rows[0]?.result ?? null;
  }

  async load(id: string): Promise<ProcessingJob | null> {
    return parseProcessingJob(await this.call('private.processing_job($1)', [id]));
  }

  async started(id: string, worker: string): Promise<void> {
    await this.call('private.processing_started($1, $2)', [id, worker]);
  }

  /** A piece or the join started on `worker`; one run again (`retry`) counts as another attempt. */
  async pieceStarted(id: string, worker: string, stage: string, retry: boolean): Promise<void> {
    await this.call('private.processing_piece_started($1, $2, $3, $4)', [id, worker, stage, retry]);
  }

  /** The stage under way and how far the attempt has come (the figure only rises). */
  async progress(id: string, stage: string, progress: number): Promise<void> {
    await this.call('private.processing_progress($1, $2, $3)', [id, stage, Math.round(progress)]);
  }

  /** A failed attempt that will be retried: the row says so until the next attempt starts. */
  async attemptFailed(id: string, reason: string): Promise<void> {
    await this.call('private.processing_attempt_failed($1, $2)', [id, reason]);
  }

  /**
   * Given up, with the reason the subscriber reads and whether another attempt could succeed;
   * false when the row was already delivered or failed.
   */
  async failed(id: string, reason: string, permanent: boolean): Promise<boolean> {
    return (await this.call('private.processing_failed($1, $2, $3)', [id, reason, permanent])) === true;
  }

  /** The title the worker suggests, while the subscriber has not given or accepted one. */
  async suggestedTitle(id: string, title: string): Promise<void> {
    await this.call('private.record_suggested_title($1, $2)', [id, title]);
  }

  /** What one writing of the episode's texts spent (private.writing_usage). */
  async writingUsage(id: string, spend: WritingSpend): Promise<void> {
    await this.call('private.record_writing_usage($1, $2)', [id, JSON.stringify(spend)]);
  }

  async driveFolder(id: string, folderId: string, url: string | null): Promise<void> {
    await this.call('private.record_drive_folder($1, $2, $3)', [id, folderId, url]);
  }

  async content(id: string, content: EpisodeContent): Promise<void> {
    await this.call('private.record_episode_content($1, $2)', [id, JSON.stringify(content)]);
  }

  /** One file of the delivery (replacing the output of the same name). */
  async output(id: string, output: StoredOutput): Promise<void> {
    await this.call('private.record_output($1, $2)', [id, JSON.stringify(output)]);
  }

  /** The clips, written by position; answers each position's clip id. */
  async clips(id: string, clips: ClipRecord[]): Promise<Map<number, string>> {
    const answer = clipIdsSchema.parse(await this.call('private.record_episode_clips($1, $2)', [id, JSON.stringify(clips)]));
    return new Map(answer.map((clip) => [clip.position, clip.id]));
  }

  async clipFile(clipId: string, driveFileId: string, driveUrl: string | null): Promise<void> {
    await this.call('private.record_clip_file($1, $2, $3)', [clipId, driveFileId, driveUrl]);
  }

  /** Every file is in Drive: delivered, and the clips' posts scheduled when the subscriber posts automatically. */
  async delivered(id: string): Promise<void> {
    await this.call('private.processing_delivered($1)', [id]);
  }

  /** The episode's podcast files in the public feeds bucket (the feed is built from them). */
  async podcastFiles(id: string, files: { audioPath: string; audioBytes: number; durationSeconds: number; transcriptPath: string | null }): Promise<void> {
    await this.call('private.record_podcast_files($1, $2, $3, $4, $5)', [id, files.audioPath, files.audioBytes, files.durationSeconds, files.transcriptPath]);
  }

  /** The transcript the episode page shows and the subscriber corrects (its first version). */
  async transcript(id: string, transcript: Transcript): Promise<void> {
    await this.call('private.record_transcript($1, $2)', [id, JSON.stringify(transcript)]);
  }

  /** The transcript as it stands now (with the subscriber's corrections), or null. */
  async currentTranscript(id: string): Promise<Transcript | null> {
    const { rows } = await this.db.query(
      `select jsonb_build_object('engine', engine, 'language', language, 'durationSeconds', duration_seconds, 'words', words, 'sentences', sentences) as transcript
         from public.episode_transcripts where episode_processing_id = $1`,
      [id],
    );
    return rows[0] ? transcriptSchema.parse(rows[0].transcript) : null;
  }

  /** The clips of the processing row as they stand now (after the subscriber's edits), by id. */
  async currentClips(id: string): Promise<Map<string, CurrentClip>> {
    const { rows } = await this.db.query(
      `select id, position, start_seconds, end_seconds, title, posts, file_name, drive_file_id, review_state
         from public.episode_clips where episode_processing_id = $1 order by position`,
      [id],
    );
    return new Map(rows.map((row) => { const clip = currentClipSchema.parse(row); return [clip.id, clip]; }));
  }

  /** The delivered episode's plan, kept for clips rendered again after an edit. */
  async deliveredPlan(id: string): Promise<SubmissionPlan | 'outdated' | null> {
    const stored = await this.call('private.delivered_plan($1)', [id]);
    if (stored === null) return null;
    return parsePlan(stored) ?? 'outdated';
  }

  /** A request of the subscriber's edits is done. */
  async requestDone(requestId: string): Promise<void> {
    await this.call('private.request_done($1)', [requestId]);
  }

  /** A request of the subscriber's edits that could not be done, and why. */
  async requestFailed(requestId: string, reason: string): Promise<void> {
    await this.call('private.request_failed($1, $2)', [requestId, reason]);
  }

  /** A clip rendered again into its Drive file. */
  async clipRendered(clipId: string, driveFileId: string, driveUrl: string | null, durationSeconds: number): Promise<void> {
    await this.call('private.record_clip_render($1, $2, $3, $4)', [clipId, driveFileId, driveUrl, durationSeconds]);
  }

  /** The plan and how many pieces it counts, on `on` (the transaction that queues its pieces). */
  async savePlan(on: Queryable, id: string, plan: SubmissionPlan, pieces: number): Promise<void> {
    await this.call('private.save_processing_plan($1, $2, $3, $4)', [id, plan.planId, JSON.stringify(plan), pieces], on);
  }

  /**
   * The row's current plan when it is `planId`: null when it was replaced or dropped (a piece of it
   * has nothing to do), `outdated` when another version of the worker wrote it.
   */
  async plan(id: string, planId: string): Promise<SubmissionPlan | 'outdated' | null> {
    const stored = await this.call('private.processing_plan($1, $2)', [id, planId]);
    if (stored === null) return null;
    return parsePlan(stored) ?? 'outdated';
  }

  async dropPlan(id: string): Promise<void> {
    await this.call('private.drop_processing_plan($1)', [id]);
  }

  /**
   * Records a piece done and answers its plan's count. Two statements: each piece counts after its
   * own insert has committed, so the last of them sees every piece. Null when the plan is gone.
   */
  /** The podcast's artwork (brand-assets path), which an audio-only episode's audiogram shows. */
  async artworkPath(processingId: string): Promise<string | null> {
    const path = await this.call('private.podcast_artwork_path($1)', [processingId]);
    return typeof path === 'string' ? path : null;
  }

  /** A rendered piece's file, for a retry of the same episode to reuse (pieceFingerprint). */
  async pieceStored(processingId: string, fingerprint: string, objectPath: string, reused: boolean): Promise<void> {
    await this.call('private.record_piece_result($1, $2, $3, $4)', [processingId, fingerprint, objectPath, reused]);
  }

  /** An earlier attempt's file of a piece with this fingerprint, still stored; null when there is none. */
  async reusablePiece(processingId: string, fingerprint: string): Promise<string | null> {
    const path = await this.call('private.reusable_piece($1, $2)', [processingId, fingerprint]);
    return typeof path === 'string' ? path : null;
  }

  async pieceDone(planId: string, piece: number): Promise<{ done: number; total: number } | null> {
    await this.call('private.record_piece_done($1, $2)', [planId, piece]);
    return pieceCountSchema.parse(await this.call('private.pieces_done($1)', [planId]));
  }
}
