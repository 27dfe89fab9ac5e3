// POST /api/scheduled-posts/:id/post-now: a waiting post is due at once; the worker posts it
// on its next round.
import { postChangeResultSchema } from '@domain/episode-page';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

function postNow(postId: string) {
  return apiRequest('POST', `/api/scheduled-posts/${encodeURIComponent(postId)}/post-now`, postChangeResultSchema);
}

export function usePostNow(episodeId: string) {
  return useEpisodeChange(episodeId, postNow);
}
