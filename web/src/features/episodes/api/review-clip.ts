// POST /api/clips/:id/review {action}: approve a clip (its posts are scheduled at once), drop it
// (never posted) or restore a dropped one.
import { clipAnswerSchema } from '@domain/episode-clips';
import type { ClipReviewAction } from '@domain/review';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

export function useReviewClip(episodeId: string) {
  return useEpisodeChange(episodeId, ({ clipId, action }: { clipId: string; action: ClipReviewAction }) =>
    apiRequest('POST', `/api/clips/${encodeURIComponent(clipId)}/review`, clipAnswerSchema, { body: { action } }),
  );
}
