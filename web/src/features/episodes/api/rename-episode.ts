// PATCH /api/episodes/:id/title {title}: the subscriber's title (or the suggestion, accepted).
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

const renamed = z.object({ id: z.string(), title: z.string(), titleConfirmed: z.boolean() });

export function useRenameEpisode(episodeId: string) {
  return useEpisodeChange(episodeId, (title: string) =>
    apiRequest('PATCH', `/api/episodes/${encodeURIComponent(episodeId)}/title`, renamed, { body: { title } }),
  );
}
