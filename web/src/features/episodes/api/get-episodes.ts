// GET /api/episodes: the caller's episodes, newest first.
import { episodeListSchema } from '@domain/episodes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiLoad } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const episodesQuery = queryOptions({
  queryKey: queryKeys.episodes.all,
  queryFn: async () => (await apiLoad('/api/episodes', episodeListSchema)) ?? [],
});

export function useEpisodes() {
  return useQuery(episodesQuery);
}

/** The titles of the episodes the worker has now (queued or processing): what a lost Drive connection stops. */
export function useEpisodesInProgress(): string[] {
  const { data } = useEpisodes();
  return (data ?? []).filter((episode) => episode.processing?.status === 'queued' || episode.processing?.status === 'processing').map((episode) => episode.title);
}
