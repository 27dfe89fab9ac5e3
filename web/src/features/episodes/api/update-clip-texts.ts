// PATCH /api/clips/:id {title, posts}: the clip's title and each platform's text, within the
// platforms' limits; a platform whose post is out keeps its text.
import { clipAnswerSchema } from '@domain/episode-clips';
import type { ClipTextsEdit } from '@domain/review';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

export function useUpdateClipTexts(episodeId: string) {
  return useEpisodeChange(episodeId, ({ clipId, edit }: { clipId: string; edit: ClipTextsEdit }) =>
    apiRequest('PATCH', `/api/clips/${encodeURIComponent(clipId)}`, clipAnswerSchema, { body: edit }),
  );
}
