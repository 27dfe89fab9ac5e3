// GET /api/episodes/:id: one episode of the caller's with its processing, outputs and posting
// calendar. While it is queued or processing, the worker still applies the subscriber's edits, or
// a post is going out, the page asks again every few seconds; it stops once the episode is settled.
import { episodeDetailSchema, isPostGoingOut, isProcessingUnderway, type EpisodeDetail } from '@domain/episode-page';
import { hasPendingEdits } from '@domain/review';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** How often the page asks for news while the worker has the episode. */
export const EPISODE_POLL_MS = 3000;

function getEpisode(id: string) {
  return apiRequest('GET', `/api/episodes/${encodeURIComponent(id)}`, episodeDetailSchema);
}

/** Something the worker is about to change: the processing, an edit, or a post going out. */
const isSettling = (detail: EpisodeDetail | undefined) =>
  isProcessingUnderway(detail) || hasPendingEdits(detail?.processing?.review) || Boolean(detail?.processing?.posts.some((post) => isPostGoingOut(post)));

export const episodeQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.episodes.detail(id),
    queryFn: () => getEpisode(id),
    refetchInterval: (query) => (isSettling(query.state.data) ? EPISODE_POLL_MS : false),
    // A missing episode stays missing: no retries before the page says so.
    retry: false,
  });

export function useEpisode(id: string) {
  return useQuery(episodeQuery(id));
}
