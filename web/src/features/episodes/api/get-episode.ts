// GET /api/episodes/:id: one episode of the caller's with its processing, outputs and posting
// calendar. While it is queued or processing the page asks again every few seconds; it stops
// once the episode is delivered or failed.
import { isProcessingUnderway, type EpisodeDetail } from '@domain/episode-page';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** How often the page asks for news while the worker has the episode. */
export const EPISODE_POLL_MS = 3000;

/** Named by resource (web/src/lib/query-keys.ts shape, not on this branch yet). */
export const episodeKey = (id: string) => ['episodes', id] as const;

export const episodeQuery = (id: string) =>
  queryOptions({
    queryKey: episodeKey(id),
    queryFn: () => apiRequest<EpisodeDetail>('GET', `/api/episodes/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (isProcessingUnderway(query.state.data) ? EPISODE_POLL_MS : false),
    // A missing episode stays missing: no retries before the page says so.
    retry: false,
  });

export function useEpisode(id: string) {
  return useQuery(episodeQuery(id));
}
