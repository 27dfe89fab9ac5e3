// POST /api/oauth/wordpress/connect {username, password, siteUrl?}: verified by the site, then stored.
import type { WordpressCredentials } from '@domain/wordpress-credentials';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { connectionsKey } from './get-connections';

export function useConnectWordpress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: WordpressCredentials) => apiRequest<{ success: boolean }>('POST', '/api/oauth/wordpress/connect', credentials),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionsKey }),
  });
}
