// Shows with a podcast feed for the feed's tests: an onboarded subscriber whose profile has the
// podcast details and a stored artwork, and a delivered episode's podcast files as the worker
// leaves them (sound and transcript in the public bucket, recorded with record_podcast_files).
import { randomBytes } from 'node:crypto';
import { PODCAST_FEEDS_BUCKET, podcastEpisodeObjectPath } from '../../supabase/functions/_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import { seedEpisode, sampleContent } from './episode-page.ts';
import { eventually } from './episodes.ts';
import { jpegBytes } from './media-fixtures.ts';
import { serviceClient, withDb } from './stack.ts';
import { createUser, type TestUser } from './users.ts';

export interface ShowDetails {
  title?: string;
  cover?: Buffer;
}

/** A subscriber who completes onboarding with these podcast details (their feed is made then). */
export async function onboardedShow(details: ShowDetails = {}): Promise<TestUser> {
  const user = await createUser('subscribed');
  const coverPath = `${user.id}/podcastCover/${randomBytes(6).toString('hex')}-cover.jpg`;
  const { error } = await serviceClient()
    .storage.from(BRAND_ASSETS_BUCKET)
    .upload(coverPath, details.cover ?? jpegBytes(1400, 1400), { contentType: 'image/jpeg' });
  if (error) throw new Error(`could not store the artwork: ${error.message}`);
  await withDb((db) =>
    db.query(
      `update public.profiles
          set podcast_title = $2, podcast_description = 'Conversations about computing & engines.', podcast_author = 'Ada Lovelace',
              podcast_copyright = '2026 Ada Lovelace', podcast_keywords = 'engines, computing', podcast_website = 'https://engines.example.com',
              podcast_language = 'en', podcast_primary_category = 'Technology', podcast_secondary_category = 'Society & Culture > Documentary',
              podcast_cover_path = $3
        where id = $1`,
      [user.id, details.title ?? 'Engines of Thought', coverPath],
    ),
  );
  await withDb((db) => db.query('update public.profiles set onboarding_completed_at = now() where id = $1', [user.id]));
  return user;
}

/** Waits until the subscriber's feed was built after `since` with nothing left to build. */
export async function feedBuiltSince(userId: string, since: Date, timeoutMs = 30_000): Promise<{ status: string; problems: string[]; feed_key: string }> {
  return eventually(
    () =>
      withDb(async (db) => {
        const { rows } = await db.query(
          `select f.status, f.problems, f.feed_key from public.podcast_feeds f join private.podcast_feed_builds b using (user_id)
            where f.user_id = $1 and f.built_at >= $2 and b.requested_at is null`,
          [userId, since],
        );
        return rows[0];
      }),
    timeoutMs,
  );
}

/** The database's clock (the feed's times are the database's). */
export const databaseNow = () => withDb(async (db) => (await db.query<{ now: Date }>('select clock_timestamp() as now')).rows[0].now);

export interface DeliveredEpisode {
  episodeId: string;
  processingId: string;
  audio: Buffer;
}

/** A delivered episode with chapters, its sound and transcript in the feed's bucket as the worker puts them. */
export async function deliveredEpisode(userId: string, title: string): Promise<DeliveredEpisode> {
  const { episodeId, processingId } = await seedEpisode(userId, { title, content: sampleContent() });
  // Bytes stand in for the M4A (the worker's own test checks the sound): the feed names their size.
  const audio = randomBytes(48_000);
  const audioPath = podcastEpisodeObjectPath(episodeId, processingId, 'm4a');
  const transcriptPath = podcastEpisodeObjectPath(episodeId, processingId, 'vtt');
  const bucket = serviceClient().storage.from(PODCAST_FEEDS_BUCKET);
  for (const [path, body, contentType] of [
    [audioPath, audio, 'audio/mp4'],
    [transcriptPath, Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello engines.\n'), 'text/vtt'],
  ] as const) {
    const { error } = await bucket.upload(path, body, { contentType, upsert: true });
    if (error) throw new Error(`could not store ${path}: ${error.message}`);
  }
  await withDb((db) =>
    db.query('select private.record_podcast_files($1, $2, $3, $4, $5)', [processingId, audioPath, audio.length, 1200.4, transcriptPath]),
  );
  return { episodeId, processingId, audio };
}
