// PATCH /api/episodes/:id/show-notes {summary, chapterTitles, keywords}: the show notes, their
// file in Drive written again.
import { showNotesSchema } from '@domain/episode-content';
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

const answer = z.object({ showNotes: showNotesSchema });

export function useUpdateShowNotes(episodeId: string) {
  return useEpisodeChange(episodeId, (edit: { summary: string; chapterTitles: string[]; keywords: string[] }) =>
    apiRequest('PATCH', `/api/episodes/${encodeURIComponent(episodeId)}/show-notes`, answer, { body: edit }),
  );
}
