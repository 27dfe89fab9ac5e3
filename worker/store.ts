// The worker's reads and writes of public.episode_processing and what a job needs to know. The
// worker connects as a server role (no RLS); subscribers and admins read the rows through RLS.
import type pg from 'pg';
import type { EpisodeContent } from '../supabase/functions/_shared/domain/episode-content.ts';
import type { OutputKind } from '../supabase/functions/_shared/domain/episode-page.ts';
import type { ProcessingLimits } from '../supabase/functions/_shared/domain-server/processing-limits.ts';
import type { ClipPosts } from './media/clip-copy.ts';

export interface OutputRecord {
  name: string;
  /** Text outputs (captions, transcript, show notes, blog post) record the duration they cover, and no size (0). */
  kind: OutputKind;
  durationSeconds: number;
  width: number;
  height: number;
  /** Captions: the video they are for (its output name). */
  captionsFor?: string;
  /** Clips: where the moment starts in the trimmed episode, and whether its edges sit at pauses. */
  startSeconds?: number;
  cutAtPauses?: boolean;
  /** Clips chosen from the transcript start and end on sentence boundaries. */
  cutAtSentences?: boolean;
  /** Clips: the title and each platform's post, from the clip's own words (posting.ts reads them). */
  title?: string;
  posts?: ClipPosts;
  driveFileId?: string;
  /** Drive's webViewLink of the file. */
  driveUrl?: string;
}

export interface SubmissionJob {
  id: string;
  status: 'queued' | 'processing' | 'delivered' | 'failed';
  userId: string | null;
  submissionLogId: string;
  title: string;
  files: string[];
  options: {
    startTimestamp: string | null;
    endTimestamp: string | null;
    addLogo: boolean;
    addIntroOutro: boolean;
    clipStyle: string;
    daysBetweenClips: number;
  };
  clipsPerEpisode: number;
  postAutomatically: boolean;
  brand: {
    /** The profile's Google Fonts family, for captions. */
    font: string | null;
    primary: string | null;
    secondary: string | null;
    tertiary: string | null;
    logoPath: string | null;
    videoIntroPath: string | null;
    videoOutroPath: string | null;
    clipIntroPath: string | null;
    clipOutroPath: string | null;
  };
  /** The caps of the subscriber's plan. */
  limits: ProcessingLimits;
  driveFolderId: string | null;
  outputs: OutputRecord[];
  submittedAt: Date;
  /** The podcast's language from the profile (ISO 639-1; English when unset). */
  language: string;
  /** What an earlier attempt recorded (a blog post already on WordPress is not posted again). */
  content: EpisodeContent | null;
}

/** The tier's clips per episode when the subscriber has no plan row (spec: default tier starter). */
const DEFAULT_CLIPS = 3;

export class ProcessingStore {
  constructor(private readonly db: pg.Pool) {}

  async load(id: string): Promise<SubmissionJob | null> {
    const { rows } = await this.db.query(
      `select p.id, p.status, p.user_id, p.submission_log_id, p.drive_folder_id, p.outputs, p.content,
              l.object_storage_files, l.submission_parameters, l.submitted_at,
              coalesce(e.title, 'Episode') as title,
              coalesce(pl.clips_per_episode, (select d.clips_per_episode from public.plans d where d.id = 'starter'), $2) as clips,
              coalesce(pr.post_automatically, true) as post_automatically,
              pr.brand_font, pr.brand_color_primary, pr.brand_color_secondary, pr.brand_color_tertiary,
              pr.podcast_language, pr.logo_path, pr.video_intro_path, pr.video_outro_path, pr.clip_intro_path, pr.clip_outro_path,
              lim.max_video_pixels, lim.max_frame_rate, lim.max_episode_seconds, lim.processing_time_limit_seconds
         from public.episode_processing p
         left join lateral private.processing_limits(p.user_id) lim on true
         join public.submission_logs l on l.id = p.submission_log_id
         left join public.episodes e on e.id = coalesce(p.episode_id, l.episode_id)
         left join public.profiles pr on pr.id = p.user_id
         left join public.subscriptions s on s.user_id = p.user_id
         left join public.plans pl on pl.id = s.tier
        where p.id = $1`,
      [id, DEFAULT_CLIPS],
    );
    const r = rows[0];
    if (!r) return null;
    const params = (r.submission_parameters ?? {}) as Record<string, unknown>;
    return {
      id: r.id,
      status: r.status,
      userId: r.user_id,
      submissionLogId: r.submission_log_id,
      title: r.title,
      files: r.object_storage_files,
      options: {
        startTimestamp: typeof params.startTimestamp === 'string' ? params.startTimestamp : null,
        endTimestamp: typeof params.endTimestamp === 'string' ? params.endTimestamp : null,
        addLogo: params.addLogo !== false,
        addIntroOutro: params.addIntroOutro !== false,
        clipStyle: typeof params.clipStyle === 'string' ? params.clipStyle : 'DEFAULT',
        daysBetweenClips: Number.isInteger(params.daysBetweenClips) ? (params.daysBetweenClips as number) : 1,
      },
      clipsPerEpisode: Number(r.clips),
      postAutomatically: r.post_automatically,
      brand: {
        font: r.brand_font,
        primary: r.brand_color_primary,
        secondary: r.brand_color_secondary,
        tertiary: r.brand_color_tertiary,
        logoPath: r.logo_path,
        videoIntroPath: r.video_intro_path,
        videoOutroPath: r.video_outro_path,
        clipIntroPath: r.clip_intro_path,
        clipOutroPath: r.clip_outro_path,
      },
      limits: {
        maxVideoPixels: r.max_video_pixels,
        maxFrameRate: r.max_frame_rate,
        maxEpisodeSeconds: r.max_episode_seconds,
        timeLimitSeconds: r.processing_time_limit_seconds,
      },
      driveFolderId: r.drive_folder_id,
      outputs: r.outputs ?? [],
      submittedAt: r.submitted_at,
      language: r.podcast_language ?? 'en',
      content: r.content ?? null,
    };
  }

  async start(id: string, worker: string): Promise<void> {
    await this.db.query(
      `update public.episode_processing
          set status = 'processing', stage = 'starting', progress = 0, worker = $2,
              attempts = attempts + 1, started_at = coalesce(started_at, now()), failure_reason = null
        where id = $1 and status in ('queued', 'processing')`,
      [id, worker],
    );
  }

  /**
   * A piece or the join started on `worker`: the row names it and the stage. A job run again after
   * its worker was lost (or failed) counts as another attempt, as a submission job run again does.
   */
  async jobStarted(id: string, worker: string, stage: string, retry: boolean): Promise<void> {
    await this.db.query(
      `update public.episode_processing
          set stage = $3, worker = $2, attempts = attempts + $4::int, failure_reason = null
        where id = $1 and status = 'processing'`,
      [id, worker, stage, retry ? 1 : 0],
    );
  }

  /**
   * The stage now under way and how far the attempt has come. The picture's pieces run beside the
   * submission job's later stages, so the figure only rises (each attempt starts again at 0).
   */
  async progress(id: string, stage: string, progress: number): Promise<void> {
    await this.db.query(
      `update public.episode_processing set stage = $2, progress = greatest(progress, least(100, $3::int))
        where id = $1 and status = 'processing'`,
      [id, stage, Math.round(progress)],
    );
  }

  async setOutputs(id: string, outputs: OutputRecord[]): Promise<void> {
    await this.db.query(`update public.episode_processing set outputs = $2 where id = $1`, [id, JSON.stringify(outputs)]);
  }

  async setContent(id: string, content: EpisodeContent): Promise<void> {
    await this.db.query(`update public.episode_processing set content = $2 where id = $1`, [id, JSON.stringify(content)]);
  }

  async setDriveFolder(id: string, folderId: string, url: string | null): Promise<void> {
    await this.db.query(`update public.episode_processing set drive_folder_id = $2, drive_folder_url = $3 where id = $1`, [
      id,
      folderId,
      url,
    ]);
  }

  // The outcome lives on this row, not on submission_logs.status, which stays the record of the
  // webhook delivery (docs/decisions.md).

  /** Every file is in Drive: the submission is delivered. */
  async delivered(id: string): Promise<void> {
    await this.db.query(
      `update public.episode_processing
          set status = 'delivered', stage = null, progress = 100, finished_at = now(), failure_reason = null
        where id = $1`,
      [id],
    );
  }

  /** Given up: the reason is shown to the subscriber and the administrators. */
  async failed(id: string, reason: string): Promise<void> {
    await this.db.query(
      `update public.episode_processing
          set status = 'failed', stage = null, finished_at = now(), failure_reason = left($2, 2000)
        where id = $1`,
      [id, reason],
    );
  }

  /** A failed attempt that will be retried: the row says so until the next attempt starts. */
  async attemptFailed(id: string, reason: string): Promise<void> {
    await this.db.query(
      `update public.episode_processing set stage = 'waiting to retry', failure_reason = left($2, 2000)
        where id = $1 and status = 'processing'`,
      [id, reason],
    );
  }
}
