// `podcast-feed-builder`: builds the shows' podcast feeds that are due (docs/decisions.md "Podcast
// hosting"). Supabase Cron calls it every minute, and the database calls it at once when a feed
// becomes due (private.request_podcast_feed_build); only the service key may run it.
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { handleFeedBuildRun } from './handler.ts';

requireSettings('podcast-feed-builder');
serveFunction(handleFeedBuildRun);
