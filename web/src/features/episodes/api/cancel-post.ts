// POST /api/scheduled-posts/:id/cancel: a waiting post will not be posted.
import { apiRequest } from '@/lib/api-client';
import { usePostChange, type PostChangeResult } from './change-scheduled-post';

export const cancelPost = (postId: string) =>
  apiRequest<PostChangeResult>('POST', `/api/scheduled-posts/${encodeURIComponent(postId)}/cancel`);

export function useCancelPost(episodeId: string) {
  return usePostChange(episodeId, cancelPost);
}
