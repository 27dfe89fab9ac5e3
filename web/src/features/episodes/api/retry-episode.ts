// POST /api/episodes/:id/retry: a failed episode queued again (the same files and options); on
// success or refusal the stats and the episode list are loaded again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { episodeStatsKey } from './get-episode-stats';
import { episodesKey } from './get-episodes';

interface RetryResult {
  success: true;
  episode: { id: string; title: string; submittedAt: string; retriedAt: string; submissionLogId: string };
}

export function retryEpisode(episodeId: string): Promise<RetryResult> {
  return apiRequest<RetryResult>('POST', `/api/episodes/${encodeURIComponent(episodeId)}/retry`);
}

export function useRetryEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryEpisode,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: episodeStatsKey }),
        queryClient.invalidateQueries({ queryKey: episodesKey }),
      ]);
    },
  });
}
