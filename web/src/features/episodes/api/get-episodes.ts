// GET /api/episodes: the caller's episodes, newest first.
import type { Episode } from '@domain/episodes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';

export const episodesKey = ['/api/episodes'] as const;

export const episodesQuery = queryOptions({
  queryKey: episodesKey,
  queryFn: async () => (await apiLoad<Episode[]>('/api/episodes')) ?? [],
});

export function useEpisodes() {
  return useQuery(episodesQuery);
}
