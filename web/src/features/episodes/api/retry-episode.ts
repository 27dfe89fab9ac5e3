// POST /api/episodes/:id/retry (helper h-quota builds the route): a failed episode is queued again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { episodeKey } from './get-episode';
import { episodesKey } from './get-episodes';

export const retryEpisode = (episodeId: string) =>
  apiRequest<unknown>('POST', `/api/episodes/${encodeURIComponent(episodeId)}/retry`);

export function useRetryEpisode(episodeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => retryEpisode(episodeId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: episodeKey(episodeId) }),
        queryClient.invalidateQueries({ queryKey: episodesKey }),
      ]),
  });
}
