// GET /api/episodes/stats: counts, limit, gating and the setup facts of the dashboard.
import type { EpisodeStats } from '@domain/episodes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';

export const episodeStatsKey = ['/api/episodes/stats'] as const;

export const episodeStatsQuery = queryOptions({
  queryKey: episodeStatsKey,
  queryFn: () => apiLoad<EpisodeStats>('/api/episodes/stats'),
});

export function useEpisodeStats() {
  return useQuery(episodeStatsQuery);
}
