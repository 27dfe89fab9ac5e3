// One run of the feed builder: claim the due feeds (private.claim_podcast_feed_builds, leased, so
// two runs never build one feed), and for each read what it is built from in one query, copy the
// artwork to the public bucket when it changed (checked against Apple's artwork rules), write each
// episode's chapters when they changed, write the feed, read it back and check it against Apple's
// requirements, and record the outcome (the first passing feed after onboarding opens submission).
import { z } from 'zod';
import { appleRequirementMessages, appleRequirementProblems } from '../_shared/domain-server/apple-podcast-requirements.ts';
import { PODCAST_FEEDS_BUCKET } from '../_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../_shared/domain/onboarding.ts';
import { artworkMessages, artworkProblems, readArtworkHeader } from '../_shared/domain/podcast-artwork.ts';
import { podcastArtworkObjectPath, podcastChaptersObjectPath, podcastFeedObjectPath } from '../_shared/domain/podcast-feed.ts';
import { db } from '../_shared/db.ts';
import { podcastFeedsPublicUrl } from '../_shared/podcast-feed-url.ts';
import { isServiceCaller } from '../_shared/service-caller.ts';
import { serviceClient } from '../_shared/supabase-clients.ts';
import { generateFeed, jsonChapters, readBack } from './feed.ts';

/** Feeds claimed at a time, how long a claim holds, and how long one run goes on claiming. */
const BATCH = 20;
const LEASE = '5 minutes';
const RUN_BUDGET_MS = 45_000;
/** Podcast apps and the CDN may keep the feed and chapters this long; artwork never changes in place. */
export const FEED_CACHE_SECONDS = 300;
const ARTWORK_CACHE_SECONDS = 31_536_000;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const sourceSchema = z.object({
  feedKey: z.string(),
  ownerEmail: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  author: z.string().nullable(),
  copyright: z.string().nullable(),
  keywords: z.string().nullable(),
  website: z.string().nullable(),
  language: z.string().nullable(),
  primaryCategory: z.string().nullable(),
  secondaryCategory: z.string().nullable(),
  coverPath: z.string().nullable(),
  artwork: z.object({ sourcePath: z.string().nullable(), path: z.string().nullable(), problems: z.array(z.string()) }),
  chapterHashes: z.record(z.string(), z.string()),
  episodes: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      publishedAt: z.string(),
      audioPath: z.string(),
      audioBytes: z.coerce.number(),
      durationSeconds: z.coerce.number(),
      transcriptPath: z.string().nullable(),
      transcriptLanguage: z.string().nullable(),
      summary: z.string().nullable(),
      chapters: z.array(z.object({ start: z.number(), title: z.string() })),
    }),
  ),
});
type Source = z.infer<typeof sourceSchema>;
type Artwork = Source['artwork'];

const publicUrl = podcastFeedsPublicUrl;

async function sha256Hex(bytes: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function store(path: string, body: Uint8Array<ArrayBuffer> | string, contentType: string, cacheSeconds: number): Promise<void> {
  const { error } = await serviceClient()
    .storage.from(PODCAST_FEEDS_BUCKET)
    .upload(path, body, { contentType, cacheControl: String(cacheSeconds), upsert: true });
  if (error) throw new Error(`could not write ${path}: ${error.message}`);
}

/** The artwork's public copy and Apple's objections to it: copied again only when the profile names another file. */
async function publicArtwork(source: Source): Promise<Artwork> {
  if (!source.coverPath) return { sourcePath: null, path: null, problems: [artworkMessages.missing] };
  if (source.coverPath === source.artwork.sourcePath) return source.artwork;
  const { data, error } = await serviceClient().storage.from(BRAND_ASSETS_BUCKET).download(source.coverPath);
  if (error || !data) throw new Error(`could not read the artwork ${source.coverPath}: ${error?.message ?? 'no body'}`);
  const bytes = new Uint8Array(await data.arrayBuffer());
  const header = readArtworkHeader(bytes);
  const problems = artworkProblems(header);
  if (!header) return { sourcePath: source.coverPath, path: null, problems };
  const path = podcastArtworkObjectPath(source.feedKey, (await sha256Hex(bytes)).slice(0, 16), header.type === 'image/png' ? 'png' : 'jpg');
  await store(path, bytes, header.type, ARTWORK_CACHE_SECONDS);
  return { sourcePath: source.coverPath, path, problems };
}

/** Writes the chapters that changed since the last build; answers every episode's chapters hash. */
async function writeChapters(source: Source): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const episode of source.episodes) {
    if (episode.chapters.length === 0) continue;
    const body = jsonChapters(episode.chapters);
    hashes[episode.id] = await sha256Hex(body);
    if (source.chapterHashes[episode.id] !== hashes[episode.id]) {
      await store(podcastChaptersObjectPath(episode.id), body, 'application/json', FEED_CACHE_SECONDS);
    }
  }
  return hashes;
}

async function buildFeed(userId: string, requestedAt: string): Promise<void> {
  const [row] = await db()<{ source: unknown }[]>`select private.podcast_feed_source(${userId}::uuid) as source`;
  if (!row?.source) return; // the subscriber and their feed are gone
  const source = sourceSchema.parse(row.source);
  const artwork = await publicArtwork(source);
  const chapterHashes = await writeChapters(source);
  const feedPath = podcastFeedObjectPath(source.feedKey);
  const xml = generateFeed(
    {
      feedUrl: publicUrl(feedPath),
      title: source.title,
      description: source.description,
      author: source.author,
      ownerEmail: source.ownerEmail,
      copyright: source.copyright,
      keywords: source.keywords,
      website: source.website,
      language: source.language,
      categories: [source.primaryCategory, source.secondaryCategory],
      artworkUrl: artwork.path ? publicUrl(artwork.path) : null,
      episodes: source.episodes.map((episode) => ({
        ...episode,
        audioUrl: publicUrl(episode.audioPath),
        transcriptUrl: episode.transcriptPath ? publicUrl(episode.transcriptPath) : null,
        chaptersUrl: chapterHashes[episode.id] ? publicUrl(podcastChaptersObjectPath(episode.id)) : null,
      })),
    },
    new Date(),
  );
  await store(feedPath, xml, 'application/rss+xml', FEED_CACHE_SECONDS);
  // The artwork's own problems say what to change; Apple's generic "no artwork" adds nothing then.
  const feedProblems = appleRequirementProblems(readBack(xml)).filter((problem) => artwork.problems.length === 0 || problem !== appleRequirementMessages.image);
  const problems = [...artwork.problems, ...feedProblems];
  await db()`
    select private.record_podcast_feed_build(${userId}::uuid, ${requestedAt}::text::timestamptz, ${problems}::text[], ${source.episodes.length}::integer,
                                             ${artwork.sourcePath}, ${artwork.path}, ${artwork.problems}::text[], ${JSON.stringify(chapterHashes)}::text::jsonb)`;
}

export async function handleFeedBuildRun(request: Request): Promise<Response> {
  await request.body?.cancel();
  if (request.method !== 'POST') return json(405, { message: 'Use POST' });
  if (!isServiceCaller(request)) return json(401, { message: 'Only the scheduler may build podcast feeds' });
  const started = Date.now();
  let built = 0;
  let failed = 0;
  while (Date.now() - started < RUN_BUDGET_MS) {
    // requested_at as text, both ways (postgres.js turns a timestamptz parameter into a Date):
    // milliseconds would never match the request the build clears.
    const claimed = await db()<{ user_id: string; requested_at: string }[]>`
      select user_id, requested_at::text as requested_at from private.claim_podcast_feed_builds(${BATCH}::integer, ${LEASE}::interval)`;
    if (claimed.length === 0) break;
    for (const { user_id: userId, requested_at: requestedAt } of claimed) {
      try {
        await buildFeed(userId, requestedAt);
        built += 1;
      } catch (cause) {
        failed += 1;
        const message = cause instanceof Error ? cause.message : String(cause);
        console.error(`podcast feed of ${userId}: ${message}`);
        await db()`select private.record_podcast_feed_failure(${userId}::uuid, ${message})`;
      }
    }
  }
  return json(200, { built, failed });
}
