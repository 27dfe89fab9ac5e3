// PATCH /api/scheduled-posts/:id {scheduledFor}: a waiting post moves to a later date.
import { apiRequest } from '@/lib/api-client';
import { usePostChange, type PostChangeResult } from './change-scheduled-post';

export const postponePost = ({ postId, scheduledFor }: { postId: string; scheduledFor: string }) =>
  apiRequest<PostChangeResult>('PATCH', `/api/scheduled-posts/${encodeURIComponent(postId)}`, { scheduledFor });

export function usePostponePost(episodeId: string) {
  return usePostChange(episodeId, postponePost);
}
