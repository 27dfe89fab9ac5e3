// POST /api/episodes/submit-direct-storage {uploadUrls, episodeData}; on success the stats and
// the episode list are loaded again.
import type { EpisodeOptions } from '@domain/episodes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { episodeStatsKey } from './get-episode-stats';
import { episodesKey } from './get-episodes';

interface SubmitEpisodeInput {
  uploadUrls: string[];
  episodeData: EpisodeOptions;
}

export function useSubmitEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SubmitEpisodeInput) => apiRequest<{ success: true }>('POST', '/api/episodes/submit-direct-storage', input),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: episodeStatsKey }),
        queryClient.invalidateQueries({ queryKey: episodesKey }),
      ]);
    },
  });
}
