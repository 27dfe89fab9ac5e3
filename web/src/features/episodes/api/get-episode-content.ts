// GET /api/episodes/:id/content: the transcript, show notes and blog post the worker made from
// the episode's words. Asked for once the episode is delivered (or failed: the reasons show).
import { episodeContentAnswerSchema } from '@domain/episode-content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function getEpisodeContent(id: string) {
  return apiRequest('GET', `/api/episodes/${encodeURIComponent(id)}/content`, episodeContentAnswerSchema);
}

const episodeContentQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.episodes.content(id), queryFn: () => getEpisodeContent(id), retry: false });

export function useEpisodeContent(id: string, finished: boolean) {
  return useQuery({ ...episodeContentQuery(id), enabled: finished });
}
