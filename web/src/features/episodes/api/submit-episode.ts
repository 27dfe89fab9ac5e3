// POST /api/episodes/submit-direct-storage {uploadUrls, episodeData}; on success the stats and
// the episode list are loaded again.
import type { EpisodeSubmission } from '@domain/episodes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, ignoredAnswer } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

interface SubmitEpisodeInput {
  uploadUrls: string[];
  episodeData: EpisodeSubmission;
}

function submitEpisode(input: SubmitEpisodeInput): Promise<unknown> {
  return apiRequest('POST', '/api/episodes/submit-direct-storage', ignoredAnswer, { body: input });
}

export function useSubmitEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitEpisode,
    // The list's key is the prefix of the stats' and every episode's: all are loaded again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.episodes.all }),
  });
}
