// Scheduled posting: with postAutomatically, each clip is posted one every daysBetweenClips days
// to every connected platform the worker posts to (YouTube first), starting the day of delivery.
// One row per clip and platform: the poster takes due rows (skip locked, so several workers share
// them), fetches the clip from Drive and posts it (platforms.ts); a platform that fails is retried
// on its own row, and a posted row is never posted again. Without postAutomatically clips wait in Drive.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type pg from 'pg';
import type { WorkerConfig } from './config.ts';
import type { AccessTokenSource } from './access-token.ts';
import { ApiError } from './api-error.ts';
import { postToLinkedIn, postToWordpress, postToX, postToYouTube, type Clip } from './platforms.ts';
import type { OutputRecord, SubmissionJob } from './store.ts';
import type { ClipPosts } from './media/clip-copy.ts';

/**
 * Platforms the worker posts to, in order: those every subscriber may connect. Facebook,
 * Instagram and TikTok (open only to the internal test account) are not posted to yet.
 */
const POSTING_PROVIDERS = ['youtube', 'x', 'linkedin', 'wordpress'] as const;
type PostingProvider = (typeof POSTING_PROVIDERS)[number];

async function postClip(config: WorkerConfig, tokens: AccessTokenSource, userId: string, provider: PostingProvider, clip: Clip): Promise<string> {
  switch (provider) {
    case 'youtube':
      return postToYouTube(config, await tokens.accessToken(userId, 'youtube'), clip);
    case 'x':
      return postToX(config, await tokens.accessToken(userId, 'x'), clip);
    case 'linkedin':
      return postToLinkedIn(config, await tokens.accessToken(userId, 'linkedin'), clip);
    case 'wordpress':
      return postToWordpress(await tokens.wordpressSite(userId), clip, config.wordpressSandboxOrigins);
  }
}

const MAX_POST_ATTEMPTS = 5;

/** One post per clip and connected platform; clip k (from 0) is due k * daysBetweenClips days on. */
export async function schedulePosts(db: pg.Pool, job: SubmissionJob, clips: OutputRecord[]): Promise<void> {
  await db.query(
    `insert into public.scheduled_posts (episode_processing_id, user_id, provider, clip_name, drive_file_id, scheduled_for)
     select $1, $2, c.provider, clip.name, clip.drive_file_id, now() + (clip.ord - 1) * make_interval(days => $3)
       from public.oauth_connections c
       cross join unnest($4::text[], $5::text[]) with ordinality as clip (name, drive_file_id, ord)
      where c.user_id = $2 and c.connected and c.provider = any ($6::public.provider[])
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
  provider: PostingProvider;
  clip_name: string;
  drive_file_id: string;
  attempts: number;
  /** The clip's outcome record, holding its title and posts (older records have neither). */
  output: { title?: string; posts?: ClipPosts } | null;
}

/** What `provider` posts for the clip: its own title and text, else (no transcript) the file's name. */
export function clipPost(provider: PostingProvider, post: Pick<DuePost, 'clip_name' | 'output'>, file: string): Clip {
  const fallback = post.output?.title ?? post.clip_name.replace(/\.mp4$/, '');
  const posts = post.output?.posts;
  switch (provider) {
    case 'youtube':
      return { file, title: posts?.youtube.title || fallback, text: fallback, body: posts?.youtube.description || undefined };
    case 'x':
      return { file, title: fallback, text: posts?.x.text || fallback };
    case 'linkedin':
      return { file, title: fallback, text: posts?.linkedin.text || fallback };
    case 'wordpress':
      return { file, title: posts?.wordpress.title || fallback, text: fallback, body: posts?.wordpress.content || undefined };
  }
}

async function downloadFromDrive(config: WorkerConfig, token: string, fileId: string, file: string): Promise<void> {
  const res = await fetch(`${config.googleApiBase}/drive/v3/files/${encodeURIComponent(fileId)}?alt=media`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok || !res.body) throw new ApiError(res.status, `Reading ${fileId} from Drive: ${res.status}`);
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
}

/** Posts every due clip once; answers how many were posted. */
export async function postDueClips(config: WorkerConfig, db: pg.Pool, tokens: AccessTokenSource, log: (line: string) => void, limit = 5): Promise<number> {
  // Claim for ten minutes: a worker that dies mid-post leaves the post due again after that.
  const { rows } = await db.query<DuePost>(
    `update public.scheduled_posts p
        set attempts = p.attempts + 1, locked_until = now() + interval '10 minutes'
      where p.id in (select id from public.scheduled_posts
                      where status = 'scheduled' and scheduled_for <= now()
                        and (locked_until is null or locked_until <= now())
                      order by scheduled_for limit $1 for update skip locked)
     returning p.id, p.user_id, p.provider, p.clip_name, p.drive_file_id, p.attempts,
               (select o from public.episode_processing e cross join jsonb_array_elements(e.outputs) o
                 where e.id = p.episode_processing_id and o ->> 'name' = p.clip_name limit 1) as output`,
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
      const externalId = await postClip(config, tokens, post.user_id, post.provider, clipPost(post.provider, post, file));
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
      log(`posting ${post.clip_name} to ${post.provider} (attempt ${post.attempts}) failed${giveUp ? ', giving up' : ''}: ${message}`);
      await db.query(
        `update public.scheduled_posts
            set status = case when $3 then 'failed' else status end, last_error = left($2, 2000),
                locked_until = case when $3 then null else now() + make_interval(secs => $4::double precision * attempts) end
          where id = $1`,
        [post.id, message, giveUp, config.postRetrySeconds],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return posted;
}
