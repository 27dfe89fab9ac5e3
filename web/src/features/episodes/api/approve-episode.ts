// POST /api/episodes/:id/approve: posting starts for every clip not dropped (at the next posting
// hour) and the blog post; a suggested title is accepted with it.
import { z } from 'zod/mini';
import { apiRequest } from '@/lib/api-client';
import { useEpisodeChange } from './episode-change';

const approved = z.object({ success: z.literal(true) });

export function useApproveEpisode(episodeId: string) {
  return useEpisodeChange(episodeId, () => apiRequest('POST', `/api/episodes/${encodeURIComponent(episodeId)}/approve`, approved));
}
