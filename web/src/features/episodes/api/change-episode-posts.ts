// POST /api/episodes/:id/posts {action, days}: every post of the episode not out yet, postponed by
// some days or canceled; answers how many changed.
import type { EpisodePostsChange } from '@domain/review';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

const changed = z.object({ changed: z.int() });

export function useChangeEpisodePosts(episodeId: string) {
  return useEpisodeChange(episodeId, (change: EpisodePostsChange) =>
    apiRequest('POST', `/api/episodes/${encodeURIComponent(episodeId)}/posts`, changed, { body: change }),
  );
}
