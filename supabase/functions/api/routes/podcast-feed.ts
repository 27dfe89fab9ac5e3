// The show's podcast feed for the dashboard (issue 44): its public address, whether it passes
// Apple's requirements and what Apple would refuse, read as the caller through PostgREST
// (public.podcast_feed() reads only the caller's own feed). `feed` is null until onboarding
// completes.
import { Hono } from 'hono';
import { podcastFeedObjectPath, storedPodcastFeedSchema, type PodcastFeedAnswer } from '../../_shared/domain/podcast-feed.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { podcastFeedsPublicUrl } from '../../_shared/podcast-feed-url.ts';
import { requireCaller } from '../../_shared/session.ts';
import { userClient } from '../../_shared/supabase-clients.ts';

export const podcastFeedRoutes = new Hono();

podcastFeedRoutes.get('/podcast-feed', async (c) => {
  const caller = await requireCaller(c);
  const { data, error } = await userClient(caller.accessToken).rpc('podcast_feed');
  if (error) throw databaseError(error, 'Could not load your podcast feed');
  if (!data) return c.json({ feed: null } satisfies PodcastFeedAnswer);
  const { feedKey, ...feed } = storedPodcastFeedSchema.parse(data);
  return c.json({ feed: { ...feed, feedUrl: podcastFeedsPublicUrl(podcastFeedObjectPath(feedKey)) } } satisfies PodcastFeedAnswer);
});
