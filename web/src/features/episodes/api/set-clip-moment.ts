// PUT /api/clips/:id/moment {firstSentence, endSentence}: the clip runs over other sentences of
// the transcript and is rendered again.
import { clipAnswerSchema } from '@domain/episode-clips';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

export function useSetClipMoment(episodeId: string) {
  return useEpisodeChange(episodeId, ({ clipId, firstSentence, endSentence }: { clipId: string; firstSentence: number; endSentence: number }) =>
    apiRequest('PUT', `/api/clips/${encodeURIComponent(clipId)}/moment`, clipAnswerSchema, { body: { firstSentence, endSentence } }),
  );
}
