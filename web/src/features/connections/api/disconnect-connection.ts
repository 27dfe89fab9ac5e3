// PATCH /api/oauth-connections/{provider}/disconnect, or DELETE /api/oauth/wordpress/disconnect.
import type { ProviderId } from '@domain/connection-status';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, ignoredAnswer } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function disconnect(provider: ProviderId): Promise<unknown> {
  return provider === 'wordpress'
    ? apiRequest('DELETE', '/api/oauth/wordpress/disconnect', ignoredAnswer)
    : apiRequest('PATCH', `/api/oauth-connections/${provider}/disconnect`, ignoredAnswer);
}

export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnect,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connections }),
  });
}
