// POST /api/admin/episodes/resubmit: a new 'resubmitted' log, delivered through the outbox.
import { resubmitResultSchema, type ResubmitPayload } from '@domain/admin-resubmit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function resubmitEpisode(payload: ResubmitPayload) {
  return apiRequest('POST', '/api/admin/episodes/resubmit', resubmitResultSchema, { body: payload });
}

export function useResubmitEpisode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resubmitEpisode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.episodeLogs }),
  });
}
