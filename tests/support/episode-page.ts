// An episode as the worker leaves it, written straight into the database for the episode page's
// tests: the episode, its log (status 'delivered', so no trigger queues work for it), a processing
// row in the state asked for, and scheduled posts. No worker touches it (the feeder takes only
// queued rows it was notified of or finds unqueued; this row is marked enqueued).
import { withDb } from './stack.ts';

export interface SeededPost {
  provider?: 'youtube' | 'x' | 'linkedin' | 'wordpress';
  clipName: string;
  /** Days from now (negative: in the past). */
  inDays: number;
  status?: 'scheduled' | 'posted' | 'failed' | 'canceled';
  /** A worker holds it (being posted, or waiting to retry). */
  locked?: boolean;
}

export interface SeededEpisode {
  title?: string;
  status?: 'queued' | 'processing' | 'delivered' | 'failed';
  stage?: string | null;
  progress?: number;
  failureReason?: string | null;
  driveFolderUrl?: string | null;
  outputs?: Array<Record<string, unknown>>;
  posts?: SeededPost[];
  submittedAt?: Date;
}

export interface Seeded {
  episodeId: string;
  processingId: string;
  postIds: string[];
}

export async function seedEpisode(userId: string, seed: SeededEpisode = {}): Promise<Seeded> {
  return withDb(async (db) => {
    const title = seed.title ?? 'Seeded episode';
    const submittedAt = seed.submittedAt ?? new Date();
    const episode = await db.query(
      `insert into public.episodes (user_id, title, files, submitted_at) values ($1::uuid, $2, array[$1::text || '/seeded.mp4'], $3) returning id`,
      [userId, title, submittedAt],
    );
    const episodeId = episode.rows[0].id as string;
    const log = await db.query(
      `insert into public.submission_logs (user_id, user_email, status, object_storage_files, submission_parameters, submitted_at, episode_id)
       select $1::uuid, p.email, 'delivered', array[$1::text || '/seeded.mp4'], '{}'::jsonb, $2, $3 from public.profiles p where p.id = $1::uuid
       returning id`,
      [userId, submittedAt, episodeId],
    );
    const status = seed.status ?? 'delivered';
    const processing = await db.query(
      `insert into public.episode_processing (submission_log_id, episode_id, user_id, status, stage, progress, failure_reason,
                                              drive_folder_url, outputs, enqueued_at, started_at, finished_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), now(), case when $4 in ('delivered', 'failed') then now() end)
       returning id`,
      [
        log.rows[0].id,
        episodeId,
        userId,
        status,
        seed.stage ?? null,
        seed.progress ?? (status === 'delivered' ? 100 : 0),
        seed.failureReason ?? null,
        seed.driveFolderUrl ?? null,
        JSON.stringify(seed.outputs ?? []),
      ],
    );
    const processingId = processing.rows[0].id as string;
    const postIds: string[] = [];
    for (const post of seed.posts ?? []) {
      const { rows } = await db.query(
        `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_name, drive_file_id, scheduled_for, status, locked_until)
         values ($1, $2, $3, $4, 'drive-file-of-' || $4, now() + make_interval(secs => $5::double precision * 86400), $6,
                 case when $7 then now() + interval '10 minutes' end)
         returning id`,
        [processingId, userId, post.provider ?? 'youtube', post.clipName, post.inDays, post.status ?? 'scheduled', post.locked ?? false],
      );
      postIds.push(rows[0].id as string);
    }
    return { episodeId, processingId, postIds };
  });
}

/** A post's row as the database has it. */
export async function postRow(id: string): Promise<{ status: string; scheduled_for: Date; attempts: number }> {
  return withDb(async (db) => (await db.query('select status, scheduled_for, attempts from public.scheduled_posts where id = $1', [id])).rows[0]);
}
