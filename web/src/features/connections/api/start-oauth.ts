// GET /api/oauth/{provider}: the provider's authorization address; the browser goes there.
import type { OAuthProviderId } from '@domain/connection-status';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export function useStartOAuth() {
  return useMutation({
    mutationFn: (provider: OAuthProviderId) => apiRequest<{ authUrl: string }>('GET', `/api/oauth/${provider}`),
    onSuccess: ({ authUrl }) => window.location.assign(authUrl),
  });
}
