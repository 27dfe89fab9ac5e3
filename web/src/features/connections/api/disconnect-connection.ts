// PATCH /api/oauth-connections/{provider}/disconnect, or DELETE /api/oauth/wordpress/disconnect.
import type { ProviderId } from '@domain/connection-status';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { connectionsKey } from './get-connections';

export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: ProviderId) =>
      provider === 'wordpress'
        ? apiRequest<{ success: boolean }>('DELETE', '/api/oauth/wordpress/disconnect')
        : apiRequest<{ success: boolean }>('PATCH', `/api/oauth-connections/${provider}/disconnect`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionsKey }),
  });
}
