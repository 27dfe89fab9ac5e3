// GET /api/episodes/:id/content: the transcript, show notes and blog post the worker made from
// the episode's words. Asked for once the episode is delivered (or failed: the reasons show).
import { episodeContentAnswerSchema } from '@domain/episode-content';
import type { ProcessingStatus } from '@domain/processing';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function getEpisodeContent(id: string) {
  return apiRequest('GET', `/api/episodes/${encodeURIComponent(id)}/content`, episodeContentAnswerSchema);
}

export const episodeContentQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.episodes.content(id), queryFn: () => getEpisodeContent(id), retry: false });

/** Whether the worker is done with the episode, so its content (or why it is missing) is known. */
export function isContentMade(status: ProcessingStatus | null): boolean {
  return status === 'delivered' || status === 'failed';
}

export function useEpisodeContent(id: string, status: ProcessingStatus | null) {
  return useQuery({ ...episodeContentQuery(id), enabled: isContentMade(status) });
}
