// An episode as the worker leaves it, written straight into the database for the episode page's
// tests: the episode, its log (status 'delivered', so no trigger queues work for it), a processing
// row in the state asked for, and scheduled posts. No worker touches it (the feeder takes only
// queued rows it was notified of or finds unqueued; this row is marked enqueued).
import type pg from 'pg';
import type { EpisodeContent } from '../../supabase/functions/_shared/domain/episode-content.ts';
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
  /** What the content engine made (transcript, show notes, blog post), as the worker stores it. */
  content?: EpisodeContent | null;
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
                                              drive_folder_url, outputs, content, enqueued_at, started_at, finished_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now(), case when $4 in ('delivered', 'failed') then now() end)
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
        seed.content ? JSON.stringify(seed.content) : null,
      ],
    );
    const processingId = processing.rows[0].id as string;
    // Each clip the posts name, as a record (its file in Drive), numbered in the names' order.
    const clipIds = new Map<string, string>();
    for (const clipName of [...new Set((seed.posts ?? []).map((post) => post.clipName))].sort()) {
      clipIds.set(clipName, await addClip(db, processingId, clipIds.size + 1, clipName));
    }
    const postIds: string[] = [];
    for (const post of seed.posts ?? []) {
      const { rows } = await db.query(
        `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_id, scheduled_for, status, locked_until)
         values ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision * 86400), $6,
                 case when $7 then now() + interval '10 minutes' end)
         returning id`,
        [processingId, userId, post.provider ?? 'youtube', clipIds.get(post.clipName), post.inDays, post.status ?? 'scheduled', post.locked ?? false],
      );
      postIds.push(rows[0].id as string);
    }
    return { episodeId, processingId, postIds };
  });
}

/** A clip record of processing row `processingId`, its file `fileName` in Drive; answers its id. */
export async function addClip(db: pg.Client, processingId: string, position: number, fileName: string): Promise<string> {
  const title = fileName.replace(/\.mp4$/, '');
  const posts = { youtube: { title, description: '' }, x: { text: title }, linkedin: { text: title }, wordpress: { title, content: '' } };
  const { rows } = await db.query(
    `insert into public.episode_clips (episode_processing_id, episode_id, user_id, position, start_seconds, end_seconds, title, posts,
                                       file_name, duration_seconds, width, height, drive_file_id)
     select p.id, p.episode_id, p.user_id, $2, ($2 - 1) * 30, ($2 - 1) * 30 + 20, $3, $4, $5, 20, 1080, 1920, 'drive-file-of-' || $5
       from public.episode_processing p where p.id = $1
     returning id`,
    [processingId, position, title, JSON.stringify(posts), fileName],
  );
  return rows[0].id as string;
}

/** A post's row as the database has it. */
export async function postRow(id: string): Promise<{ status: string; scheduled_for: Date; attempts: number }> {
  return withDb(async (db) => (await db.query('select status, scheduled_for, attempts from public.scheduled_posts where id = $1', [id])).rows[0]);
}

/** Content as the engine makes it for a short interview: every part present, one part not made. */
export function sampleContent(): EpisodeContent {
  const sentences = Array.from({ length: 40 }, (_, i) => `00:${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'} Sentence ${i + 1} of the interview, about engines and thought.`);
  return {
    transcript: { engine: 'pocketsphinx', language: 'en-US', durationSeconds: 1200, wordCount: 360, text: sentences.join('\n') },
    showNotes: {
      summary: 'A conversation about how engines of thought are built, tested and taken apart again.',
      chapters: [
        { start: 0, time: '00:00:00', title: 'Introductions', firstSentence: 0, endSentence: 10 },
        { start: 300, time: '00:05:00', title: 'Building the engine', firstSentence: 10, endSentence: 25 },
        { start: 750, time: '00:12:30', title: 'Taking it apart', firstSentence: 25, endSentence: 40 },
      ],
      quotes: [
        { start: 320, time: '00:05:20', text: 'Every engine starts as a drawing on a napkin.' },
        { start: 800, time: '00:13:20', text: 'You learn the most when it breaks.' },
      ],
      keywords: ['engines', 'thought', 'testing', 'design'],
    },
    blogPost: { title: 'Engines of Thought', markdown: '# Engines of Thought\n\nA conversation about engines.', wordpress: null },
    problems: [{ stage: 'wordpress', reason: 'WordPress is not connected.' }],
  };
}
