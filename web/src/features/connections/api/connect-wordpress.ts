// POST /api/oauth/wordpress/connect {username, password, siteUrl?}: verified by the site, then stored.
import type { WordpressCredentials } from '@domain/wordpress-credentials';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, ignoredAnswer } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

function connectWordpress(credentials: WordpressCredentials): Promise<unknown> {
  return apiRequest('POST', '/api/oauth/wordpress/connect', ignoredAnswer, { body: credentials });
}

export function useConnectWordpress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectWordpress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connections }),
  });
}
