// The show's podcast feed (issue 44): where its files sit in the public podcast-feeds bucket, and
// GET /api/podcast-feed's answer (the feed's address and state for the dashboard).
import { z } from 'zod/mini';

/** The feed itself: `feeds/<feed key>.xml` (the key is random and unguessable, one per subscriber). */
export const podcastFeedObjectPath = (feedKey: string) => `feeds/${feedKey}.xml`;

/** The public copy of the artwork, named by its content (Apple: change the file name with the image). */
export const podcastArtworkObjectPath = (feedKey: string, contentHash: string, extension: 'jpg' | 'png') =>
  `artwork/${feedKey}/${contentHash}.${extension}`;

/** An episode's chapters as Podcasting 2.0 JSON chapters, beside its sound and transcript. */
export const podcastChaptersObjectPath = (episodeId: string) => `episodes/${episodeId}/chapters.json`;

export const PODCAST_FEED_STATUSES = ['building', 'valid', 'invalid'] as const;
export type PodcastFeedStatus = (typeof PODCAST_FEED_STATUSES)[number];

export const podcastFeedSchema = z.object({
  /** The address to submit to Apple Podcasts and Spotify. */
  feedUrl: z.string(),
  /** building: not written yet; valid: passes Apple's requirements; invalid: see problems. */
  status: z.enum(PODCAST_FEED_STATUSES),
  /** What Apple Podcasts would refuse, in words (the artwork's size, shape or colours...). */
  problems: z.array(z.string()),
  episodeCount: z.number(),
  builtAt: z.nullable(z.string()),
  /** The e-mail address the feed names as its owner (Spotify sends its code there). */
  ownerEmail: z.nullable(z.string()),
  /** Episode submission is open (hosting_ready_at is set). */
  hostingReady: z.boolean(),
});
export type PodcastFeed = z.infer<typeof podcastFeedSchema>;

/** GET /api/podcast-feed: null until onboarding completes (the feed exists from then on). */
export const podcastFeedAnswerSchema = z.object({ feed: z.nullable(podcastFeedSchema) });

/** What public.podcast_feed() answers: the dashboard's feed with its key in place of its address. */
export const storedPodcastFeedSchema = z.extend(z.omit(podcastFeedSchema, { feedUrl: true }), { feedKey: z.string() });
export type PodcastFeedAnswer = z.infer<typeof podcastFeedAnswerSchema>;
