// POST /api/scheduled-posts/:id/cancel: a waiting post will not be posted.
import { postChangeResultSchema } from '@domain/episode-page';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

function cancelPost(postId: string) {
  return apiRequest('POST', `/api/scheduled-posts/${encodeURIComponent(postId)}/cancel`, postChangeResultSchema);
}

export function useCancelPost(episodeId: string) {
  return useEpisodeChange(episodeId, cancelPost);
}
