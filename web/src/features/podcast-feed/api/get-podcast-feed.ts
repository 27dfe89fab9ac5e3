// GET /api/podcast-feed: the show's feed address and state. Asked again every few seconds while
// the feed is being built or hosting is about to open, and the episode stats (the hosting block)
// are read again once hosting opens.
import { podcastFeedAnswerSchema, type PodcastFeedAnswer } from '@domain/podcast-feed';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiLoad } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const WAITING_REFETCH_MS = 3000;

/** Still settling: being built, or passing with hosting not yet shown as open. */
const settling = (answer: PodcastFeedAnswer | null | undefined) =>
  !!answer?.feed && (answer.feed.status === 'building' || (answer.feed.status === 'valid' && !answer.feed.hostingReady));

export const podcastFeedQuery = queryOptions({
  queryKey: queryKeys.podcastFeed,
  queryFn: () => apiLoad('/api/podcast-feed', podcastFeedAnswerSchema),
  refetchInterval: (query) => (settling(query.state.data) ? WAITING_REFETCH_MS : false),
});

export function usePodcastFeed() {
  const query = useQuery(podcastFeedQuery);
  const queryClient = useQueryClient();
  const hostingReady = query.data?.feed?.hostingReady;
  // The stats are read again when hosting opens while the dashboard is shown, not on every visit
  // to a show whose hosting is open (its stats, read beside the feed, already say so).
  const wasWaiting = useRef(false);
  useEffect(() => {
    if (hostingReady === false) wasWaiting.current = true;
    if (hostingReady && wasWaiting.current) void queryClient.invalidateQueries({ queryKey: queryKeys.episodes.stats });
  }, [hostingReady, queryClient]);
  return query;
}
