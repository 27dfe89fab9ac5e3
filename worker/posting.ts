// Scheduled posting: with postAutomatically, each clip is posted one every daysBetweenClips days
// to the platforms the worker can post to (YouTube first), starting the day of delivery. The
// poster takes due posts (skip locked, so several workers share them) and uploads each clip
// from Drive to YouTube (videos.insert, resumable). Without postAutomatically clips wait in Drive.
import { createWriteStream, createReadStream, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type pg from 'pg';
import type { WorkerConfig } from './config.ts';
import type { AccessTokenSource } from './access-token.ts';
import { GoogleApiError } from './google/drive.ts';
import type { OutputRecord, SubmissionJob } from './store.ts';

/** Platforms the worker posts to, in order. The others are left to the subscriber for now. */
export const POSTING_PROVIDERS = ['youtube'] as const;
const MAX_POST_ATTEMPTS = 5;

/** One post per clip and connected platform; clip k (from 0) is due k * daysBetweenClips days on. */
export async function schedulePosts(db: pg.Pool, job: SubmissionJob, clips: OutputRecord[]): Promise<void> {
  await db.query(
    `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_name, drive_file_id, scheduled_for)
     select $1, $2, c.provider, clip.name, clip.drive_file_id, now() + (clip.ord - 1) * make_interval(days => $3)
       from public.oauth_connections c
       cross join unnest($4::text[], $5::text[]) with ordinality as clip (name, drive_file_id, ord)
      where c.user_id = $2 and c.connected and c.provider = any ($6::text[])
     on conflict (episode_processing_id, provider, clip_name) do nothing`,
    [
      job.id,
      job.userId,
      job.options.daysBetweenClips,
      clips.map((c) => c.name),
      clips.map((c) => c.driveFileId),
      [...POSTING_PROVIDERS],
    ],
  );
}

interface DuePost {
  id: string;
  user_id: string;
  provider: string;
  clip_name: string;
  drive_file_id: string;
  attempts: number;
}

async function downloadFromDrive(config: WorkerConfig, token: string, fileId: string, file: string): Promise<void> {
  const res = await fetch(`${config.googleApiBase}/drive/v3/files/${encodeURIComponent(fileId)}?alt=media`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok || !res.body) throw new GoogleApiError(`Reading ${fileId} from Drive: ${res.status}`, res.status);
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
}

async function uploadToYouTube(config: WorkerConfig, token: string, file: string, title: string): Promise<string> {
  const size = statSync(file).size;
  const start = await fetch(`${config.googleApiBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-type': 'video/mp4',
      'x-upload-content-length': String(size),
    },
    body: JSON.stringify({ snippet: { title: title.slice(0, 100) }, status: { privacyStatus: 'public' } }),
  });
  const session = start.headers.get('location');
  await start.body?.cancel();
  if (!start.ok || !session) throw new GoogleApiError(`Starting the YouTube upload: ${start.status}`, start.status);
  const res = await fetch(session, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'video/mp4', 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  if (!res.ok) throw new GoogleApiError(`Uploading to YouTube: ${res.status} ${(await res.text()).slice(0, 200)}`, res.status);
  return ((await res.json()) as { id: string }).id;
}

/** Posts every due clip once; answers how many were posted. */
export async function postDueClips(config: WorkerConfig, db: pg.Pool, tokens: AccessTokenSource, limit = 5): Promise<number> {
  // Claim for ten minutes: a worker that dies mid-post leaves the post due again after that.
  const { rows } = await db.query<DuePost>(
    `update public.scheduled_posts p
        set attempts = p.attempts + 1, locked_until = now() + interval '10 minutes'
      where p.id in (select id from public.scheduled_posts
                      where status = 'scheduled' and scheduled_for <= now()
                        and (locked_until is null or locked_until <= now())
                      order by scheduled_for limit $1 for update skip locked)
     returning p.id, p.user_id, p.provider, p.clip_name, p.drive_file_id, p.attempts`,
    [limit],
  );
  let posted = 0;
  for (const post of rows) {
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `post-${post.id}-`));
    try {
      const driveToken = await tokens.accessToken(post.user_id, 'google');
      const file = path.join(dir, 'clip.mp4');
      await downloadFromDrive(config, driveToken, post.drive_file_id, file);
      const youtubeToken = await tokens.accessToken(post.user_id, 'youtube');
      const externalId = await uploadToYouTube(config, youtubeToken, file, post.clip_name.replace(/\.mp4$/, ''));
      await db.query(
        `update public.scheduled_posts
            set status = 'posted', posted_at = now(), external_id = $2, last_error = null, locked_until = null
          where id = $1`,
        [post.id, externalId],
      );
      posted += 1;
    } catch (error) {
      const message = (error as Error).message;
      const giveUp = post.attempts >= MAX_POST_ATTEMPTS || (error as { permanent?: boolean }).permanent === true;
      await db.query(
        `update public.scheduled_posts
            set status = case when $3 then 'failed' else status end, last_error = left($2, 2000),
                locked_until = case when $3 then null else now() + interval '5 minutes' * attempts end
          where id = $1`,
        [post.id, message, giveUp],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return posted;
}
