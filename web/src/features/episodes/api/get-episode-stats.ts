// GET /api/episodes/stats: counts, limit, gating and the setup facts of the dashboard.
import { episodeStatsSchema } from '@domain/episodes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const episodeStatsQuery = queryOptions({
  queryKey: queryKeys.episodes.stats,
  queryFn: () => apiLoad('/api/episodes/stats', episodeStatsSchema),
});

export function useEpisodeStats() {
  return useQuery(episodeStatsQuery);
}
