// POST /api/episodes/:id/retry: a failed episode queued again (the same files and options); on
// success or refusal the episodes (their list, stats and detail) are loaded again.
import { retryResultSchema } from '@domain/episodes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function retryEpisode(episodeId: string) {
  return apiRequest('POST', `/api/episodes/${encodeURIComponent(episodeId)}/retry`, retryResultSchema);
}

export function useRetryEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryEpisode,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.episodes.all }),
  });
}
