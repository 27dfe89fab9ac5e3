// Each OAuth provider's endpoints, scopes and client credentials, from the function's secrets
// (domain-server/oauth-token-endpoint.ts reads them: OAUTH_<PROVIDER>_CLIENT_ID, _CLIENT_SECRET, and
// _SANDBOX_URL, which the local stack sets to send the provider's endpoints to its sandbox).
import { providerLabel, type OAuthProviderId } from '../domain/connection-status.ts';
import type { OAuthProviderConfig } from '../domain-server/oauth-token-endpoint.ts';
import { settings } from '../config.ts';
import { HttpError } from '../http-error.ts';

export function oauthProviderConfig(id: OAuthProviderId): OAuthProviderConfig {
  const config = settings().oauthClients[id];
  if (!config) throw new HttpError(503, `${providerLabel(id)} connections are not configured`);
  return config;
}

/** The one redirect URI every provider is registered with: the site's `/oauth/callback`. */
export function oauthRedirectUri(): string {
  return settings().oauthRedirectUri;
}

/** The HttpOnly cookie binding an OAuth flow to the browser that started it. */
export const OAUTH_BINDING_COOKIE = 'castloop-oauth-binding';
