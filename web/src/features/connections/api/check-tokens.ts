// POST /api/oauth/refresh-all: validated, refreshed, failed and needsReauth; then the list is refetched.
import { tokenCheckResultSchema } from '@domain/connection-status';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function checkTokens() {
  return apiRequest('POST', '/api/oauth/refresh-all', tokenCheckResultSchema);
}

export function useCheckTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkTokens,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connections }),
  });
}
