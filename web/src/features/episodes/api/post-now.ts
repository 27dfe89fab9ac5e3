// POST /api/scheduled-posts/:id/post-now: a waiting post is due at once; the worker posts it
// on its next round.
import { apiRequest } from '@/lib/api-client';
import { usePostChange, type PostChangeResult } from './change-scheduled-post';

export const postNow = (postId: string) =>
  apiRequest<PostChangeResult>('POST', `/api/scheduled-posts/${encodeURIComponent(postId)}/post-now`);

export function usePostNow(episodeId: string) {
  return usePostChange(episodeId, postNow);
}
