// POST /api/oauth/refresh-all: validated, refreshed, failed and needsReauth; then the list is refetched.
import type { TokenCheckResult } from '@domain/connection-status';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { connectionsKey } from './get-connections';

export function useCheckTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<TokenCheckResult>('POST', '/api/oauth/refresh-all'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionsKey }),
  });
}
