// GET /api/oauth/{provider}: the provider's authorization address; the browser goes there.
import { authorizationAddressSchema, type OAuthProviderId } from '@domain/connection-status';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

function startOAuth(provider: OAuthProviderId) {
  return apiRequest('GET', `/api/oauth/${provider}`, authorizationAddressSchema);
}

export function useStartOAuth() {
  return useMutation({
    mutationFn: startOAuth,
    onSuccess: ({ authUrl }) => window.location.assign(authUrl),
  });
}
