// PUT /api/episodes/:id/transcript {version, words}: corrected words (each keeps its times); the
// clips they fall in are rendered again with the corrected captions.
import { transcriptSavedSchema, type WordCorrection } from '@domain/review';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

export function useSaveTranscript(episodeId: string) {
  return useEpisodeChange(episodeId, (save: { version: number; words: WordCorrection[] }) =>
    apiRequest('PUT', `/api/episodes/${encodeURIComponent(episodeId)}/transcript`, transcriptSavedSchema, { body: save }),
  );
}
