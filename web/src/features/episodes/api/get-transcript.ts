// GET /api/episodes/:id/transcript: the words with their times and confidence, in sentences, and
// the version the editor's corrections are made on.
import type { EpisodeProcessingDetail } from '@domain/episode-page';
import { episodeTranscriptSchema } from '@domain/review';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const transcriptQuery = (episodeId: string) =>
  queryOptions({
    queryKey: queryKeys.episodes.transcript(episodeId),
    queryFn: () => apiRequest('GET', `/api/episodes/${encodeURIComponent(episodeId)}/transcript`, episodeTranscriptSchema),
    retry: false,
  });

/** Only a delivered episode's transcript the worker kept (review.transcriptVersion) is asked for. */
export const hasEditableTranscript = (processing: EpisodeProcessingDetail | null | undefined) =>
  processing?.status === 'delivered' && processing.review.transcriptVersion !== null;

export function useTranscript(episodeId: string, enabled: boolean) {
  return useQuery({ ...transcriptQuery(episodeId), enabled });
}
