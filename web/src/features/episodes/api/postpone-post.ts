// PATCH /api/scheduled-posts/:id {scheduledFor}: a waiting post moves to a later date.
import { postChangeResultSchema } from '@domain/episode-page';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

function postponePost({ postId, scheduledFor }: { postId: string; scheduledFor: string }) {
  return apiRequest('PATCH', `/api/scheduled-posts/${encodeURIComponent(postId)}`, postChangeResultSchema, { body: { scheduledFor } });
}

export function usePostponePost(episodeId: string) {
  return useEpisodeChange(episodeId, postponePost);
}
