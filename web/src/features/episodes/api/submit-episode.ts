// POST /api/episodes/submit-direct-storage {uploadUrls, episodeData}; on success the stats and
// the episode list are loaded again.
import type { EpisodeOptions } from '@domain/episodes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { episodeTexts as t } from '../texts';
import { episodeStatsKey } from './get-episode-stats';
import { episodesKey } from './get-episodes';

interface SubmitEpisodeInput {
  uploadUrls: string[];
  episodeData: EpisodeOptions;
}

/** The toast text of a failed submission: the server's message, else the spec's fallbacks. */
export function submitFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const text = error.message.replace(/^\d{3}: /, '').trim();
    if (text) return text;
    return t.serverError(error.status, '');
  }
  return error instanceof Error && error.message ? error.message : t.submitFailed;
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
