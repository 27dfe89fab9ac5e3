// Posting what is due: each scheduled post (one per clip and platform, and the blog post, held by
// private.processing_delivered until the subscriber's review releases it) is claimed by one worker
// (private.claim_due_posts: skip locked, so several workers share them); a clip is fetched from
// Drive and posted with the platform's own API (social.ts), the blog post goes to WordPress as
// written (or edited) then. A platform that fails is retried on its own row, and a posted row is
// never posted again. The clip's record (public.episode_clips) holds its file and its texts, so a
// clip rendered again or retitled before its post goes out is posted as it is now. Each round
// first releases the episodes whose review window has passed (private.release_due_reviews).
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type pg from 'pg';
import { z } from 'zod';
import { POSTING_PROVIDERS, type PostingProvider } from '../../supabase/functions/_shared/domain/connection-status.ts';
import { clipPostsSchema } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import { showNotesSchema } from '../../supabase/functions/_shared/domain/episode-content.ts';
import { PODCAST_FEEDS_BUCKET } from '../../supabase/functions/_shared/domain/episodes.ts';
import { withEpisodeLink, youtubeEpisodeDescription } from '../content/platform-text.ts';
import { markdownToHtml } from '../../supabase/functions/_shared/domain/markdown.ts';
import type { WorkerConfig } from '../config.ts';
import { isPermanent, ProcessingFailure } from '../failure.ts';
import type { AccessTokenSource } from './access-token.ts';
import { postToLinkedIn, postToWordpress, postToX, postToYouTube, publishToWordpress, type Clip } from './social.ts';

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

/** A post claimed for this worker (private.claim_due_posts): a clip with its file and texts, or the blog post. */
const clipPostSchema = z.object({
  kind: z.literal('clip'),
  id: z.uuid(),
  userId: z.uuid(),
  provider: z.enum(POSTING_PROVIDERS),
  attempts: z.number().int(),
  clipId: z.uuid(),
  episodeProcessingId: z.uuid(),
  title: z.string(),
  posts: clipPostsSchema,
  fileName: z.string(),
  driveFileId: z.string().nullable(),
});
/** Where the episode can be watched or heard by anyone (private.public_episode_link). */
const episodeLinkSchema = z.union([z.object({ youtubeVideoId: z.string() }), z.object({ audioPath: z.string() })]).nullable();
const articlePostSchema = z.object({
  kind: z.literal('article'),
  id: z.uuid(),
  userId: z.uuid(),
  provider: z.literal('wordpress'),
  attempts: z.number().int(),
  publish: z.boolean(),
  title: z.string().nullable(),
  markdown: z.string().nullable(),
  episodeProcessingId: z.uuid(),
  episodeDriveFileId: z.string().nullable(),
});
const episodePostSchema = z.object({
  kind: z.literal('episode'),
  id: z.uuid(),
  userId: z.uuid(),
  provider: z.literal('youtube'),
  attempts: z.number().int(),
  title: z.string(),
  showNotes: z.nullable(showNotesSchema),
  driveFileId: z.string().nullable(),
});
const duePostSchema = z.discriminatedUnion('kind', [clipPostSchema, articlePostSchema, episodePostSchema]);
type DueEpisode = z.infer<typeof episodePostSchema>;
export type DuePost = z.infer<typeof clipPostSchema>;
type DueArticle = z.infer<typeof articlePostSchema>;

/**
 * What `provider` posts for the clip: its own title and text for that platform; on X and LinkedIn
 * followed by the full episode's public address when it fits.
 */
export function clipPost(provider: PostingProvider, post: Pick<DuePost, 'title' | 'posts'>, file: string, episodeAddress: string | null = null): Clip {
  const { title, posts } = post;
  switch (provider) {
    case 'youtube':
      return { file, title: posts.youtube.title || title, text: title, body: posts.youtube.description || undefined };
    case 'x':
      return { file, title, text: withEpisodeLink('x', posts.x.text || title, episodeAddress) };
    case 'linkedin':
      return { file, title, text: withEpisodeLink('linkedin', posts.linkedin.text || title, episodeAddress) };
    case 'wordpress':
      return { file, title: posts.wordpress.title || title, text: title, body: posts.wordpress.content || undefined };
  }
}

async function downloadFromDrive(config: WorkerConfig, token: string, fileId: string, file: string): Promise<void> {
  const res = await fetch(`${config.googleApiBase}/drive/v3/files/${encodeURIComponent(fileId)}?alt=media`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok || !res.body) throw ProcessingFailure.refusal(res.status, `Reading ${fileId} from Drive: ${res.status}`);
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
}

/** The public address of the episode: its YouTube video, else its sound in the public podcast-feeds bucket. */
function publicAddress(config: WorkerConfig, link: z.infer<typeof episodeLinkSchema>): string | null {
  if (!link) return null;
  if ('youtubeVideoId' in link) return `https://www.youtube.com/watch?v=${encodeURIComponent(link.youtubeVideoId)}`;
  return `${config.supabaseUrl}/storage/v1/object/public/${PODCAST_FEEDS_BUCKET}/${link.audioPath.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The blog post's links to the episode's own Drive file (private: readers cannot open it) point at
 * its public address instead, or become plain text when it has none.
 */
export function withPublicEpisodeLinks(markdown: string, driveFileId: string | null, address: string | null): string {
  if (!driveFileId) return markdown;
  const id = driveFileId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return markdown.replace(new RegExp(`\\[([^\\]]*)\\]\\(([^)\\s]*${id}[^)\\s]*)\\)`, 'g'), (_, text: string) => (address ? `[${text}](${address})` : text));
}

/** Whether the post waits for its full episode's YouTube video, to link to it (private.post_waits_for_video). */
async function waitsForVideo(db: pg.Pool, postId: string): Promise<boolean> {
  return (await db.query<{ waits: boolean }>(`select private.post_waits_for_video($1) as waits`, [postId])).rows[0].waits;
}

/** The episode's public address, asked when posting, not when claimed: the video may have gone out in this same round. */
async function episodeAddress(config: WorkerConfig, db: pg.Pool, processingId: string): Promise<string | null> {
  const { rows } = await db.query<{ link: unknown }>(`select private.public_episode_link($1) as link`, [processingId]);
  return publicAddress(config, episodeLinkSchema.parse(rows[0].link));
}

/** The blog post on the subscriber's WordPress, published or as a draft; its title is WordPress's own, not repeated in the text. */
async function postArticle(config: WorkerConfig, db: pg.Pool, tokens: AccessTokenSource, post: DueArticle): Promise<boolean> {
  if (!post.title || !post.markdown) throw new ProcessingFailure('The episode has no blog post', true);
  if (await waitsForVideo(db, post.id)) return false;
  const markdown = withPublicEpisodeLinks(post.markdown, post.episodeDriveFileId, await episodeAddress(config, db, post.episodeProcessingId));
  const body = markdown.replace(/^#\s+.*\n+/, '');
  const site = await tokens.wordpressSite(post.userId);
  const published = await publishToWordpress(site, { title: post.title, html: markdownToHtml(body), status: post.publish ? 'publish' : 'draft' }, config.wordpressSandboxOrigins);
  await db.query(`select private.article_published($1, $2, $3)`, [post.id, published.postId, published.link]);
  return true;
}

/** The full episode fetched from Drive and uploaded to YouTube with its chapters; answers the video's id. */
async function postEpisode(config: WorkerConfig, tokens: AccessTokenSource, post: DueEpisode, dir: string): Promise<string> {
  if (!post.driveFileId) throw new ProcessingFailure('The episode is not in Drive', true);
  const file = path.join(dir, 'episode.mp4');
  await downloadFromDrive(config, await tokens.accessToken(post.userId, 'google'), post.driveFileId, file);
  return postToYouTube(config, await tokens.accessToken(post.userId, 'youtube'), { file, title: post.title, text: post.title, body: youtubeEpisodeDescription(post.showNotes) });
}

/** A clip fetched from Drive and posted (linking the full episode where the platform's text does); answers the platform's id for the post. */
async function postClipOf(config: WorkerConfig, db: pg.Pool, tokens: AccessTokenSource, post: DuePost, dir: string): Promise<string> {
  if (!post.driveFileId) throw new ProcessingFailure(`The clip ${post.fileName} is not in Drive`, true);
  const driveToken = await tokens.accessToken(post.userId, 'google');
  const file = path.join(dir, 'clip.mp4');
  await downloadFromDrive(config, driveToken, post.driveFileId, file);
  const address = post.provider === 'x' || post.provider === 'linkedin' ? await episodeAddress(config, db, post.episodeProcessingId) : null;
  return postClip(config, tokens, post.userId, post.provider, clipPost(post.provider, post, file, address));
}

/** Releases what its review window lets go, then posts everything due once; answers how many were posted. */
export async function postDueClips(config: WorkerConfig, db: pg.Pool, tokens: AccessTokenSource, log: (line: string) => void, limit = 5): Promise<number> {
  await db.query(`select private.release_due_reviews()`);
  const { rows } = await db.query<{ post: unknown }>(`select private.claim_due_posts($1) as post`, [limit]);
  let posted = 0;
  // The full episode first: the clips' and the blog post's posts of this round link to its video.
  const due = rows.map((row) => duePostSchema.parse(row.post)).sort((a, b) => Number(b.kind === 'episode') - Number(a.kind === 'episode'));
  for (const post of due) {
    await mkdir(config.tempDir, { recursive: true });
    const dir = await mkdtemp(path.join(config.tempDir, `post-${post.id}-`));
    const what = post.kind === 'clip' ? post.fileName : post.kind === 'episode' ? 'the full episode' : 'the blog post';
    try {
      if (post.kind === 'article') {
        if (await postArticle(config, db, tokens, post)) posted += 1;
      } else if (post.kind === 'clip' && (await waitsForVideo(db, post.id))) {
        // Asked again shortly, once its full episode is on YouTube.
      } else {
        const externalId = post.kind === 'episode' ? await postEpisode(config, tokens, post, dir) : await postClipOf(config, db, tokens, post, dir);
        await db.query(`select private.post_published($1, $2)`, [post.id, externalId]);
        posted += 1;
      }
    } catch (error) {
      const message = (error as Error).message;
      const giveUp = post.attempts >= MAX_POST_ATTEMPTS || isPermanent(error);
      log(`posting ${what} to ${post.provider} (attempt ${post.attempts}) failed${giveUp ? ', giving up' : ''}: ${message}`);
      await db.query(`select private.post_attempt_failed($1, $2, $3, $4)`, [post.id, message, giveUp, config.postRetrySeconds]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return posted;
}
