// POST /api/admin/episodes/resubmit: a new 'resubmitted' log, delivered through the outbox.
import type { ResubmitPayload } from '@domain/admin-resubmit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { episodeLogsKey } from './get-episode-logs';

interface ResubmitResult {
  message: string;
  log: { id: string; status: string; submittedAt: string };
}

export function useResubmitEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: ResubmitPayload) =>
      apiRequest<ResubmitResult>('POST', '/api/admin/episodes/resubmit', payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: episodeLogsKey }),
  });
}
