// Each OAuth provider's endpoints, scopes and client credentials, from the function's secrets
// (domain/oauth-token-endpoint.ts reads them: OAUTH_<PROVIDER>_CLIENT_ID, _CLIENT_SECRET, and
// _SANDBOX_URL, which the local stack sets to send the provider's endpoints to its sandbox).
import { providerLabel, type OAuthProviderId } from '../domain/connection-status.ts';
import { oauthProviderConfigFromEnv, type OAuthProviderConfig } from '../domain/oauth-token-endpoint.ts';
import { HttpError } from '../http-error.ts';

export function oauthProviderConfig(id: OAuthProviderId): OAuthProviderConfig {
  const config = oauthProviderConfigFromEnv(id, Deno.env.toObject());
  if (!config) throw new HttpError(503, `${providerLabel(id)} connections are not configured`);
  return config;
}

/** The one redirect URI every provider is registered with: the site's `/oauth/callback`. */
export function oauthRedirectUri(): string {
  const explicit = Deno.env.get('OAUTH_REDIRECT_URI');
  if (explicit) return explicit;
  return `${(Deno.env.get('SITE_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '')}/oauth/callback`;
}

/** The HttpOnly cookie binding an OAuth flow to the browser that started it. */
export const OAUTH_BINDING_COOKIE = 'castloop-oauth-binding';
