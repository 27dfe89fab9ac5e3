// The OAuth 2.0 calls Castloop makes to a provider's token endpoint: authorization code with
// PKCE (RFC 7636), refresh, and revocation (RFC 7009), with each provider's endpoints and how it
// wants the client authenticated. Shared by the Edge Functions (connect, daily refresh, token
// check) and the processing worker (refresh on demand), so both read and refresh tokens alike.
// Web APIs only (fetch, URL, btoa): runs in Deno and Node. Never logs or returns token values.
import type { OAuthProviderId } from '../domain/connection-status.ts';
import { PROVIDER_ANSWER_MAX_BYTES, readCappedText } from './capped-response.ts';

interface Endpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** RFC 7009 revocation, where the provider offers it. */
  revokeUrl: string | null;
}

interface ProviderSettings extends Endpoints {
  scopes: string[];
  scopeSeparator: ' ' | ',';
  extraAuthorizeParams: Record<string, string>;
  /** TikTok calls the client id `client_key`. */
  clientIdParam: 'client_id' | 'client_key';
  /** How the token endpoint wants the client secret. */
  clientAuth: 'basic' | 'body';
}

const googleEndpoints: Endpoints = {
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
};
// Offline access (a refresh token) and consent every time, so a reconnection gets a new one.
const googleParams = { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' };

const settings: Record<OAuthProviderId, ProviderSettings> = {
  google: {
    ...googleEndpoints,
    scopes: ['https://www.googleapis.com/auth/drive.file'],
    scopeSeparator: ' ',
    extraAuthorizeParams: googleParams,
    clientIdParam: 'client_id',
    clientAuth: 'body',
  },
  youtube: {
    ...googleEndpoints,
    scopes: ['https://www.googleapis.com/auth/youtube.upload'],
    scopeSeparator: ' ',
    extraAuthorizeParams: googleParams,
    clientIdParam: 'client_id',
    clientAuth: 'body',
  },
  x: {
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    revokeUrl: 'https://api.x.com/2/oauth2/revoke',
    scopes: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'],
    scopeSeparator: ' ',
    extraAuthorizeParams: {},
    clientIdParam: 'client_id',
    clientAuth: 'basic',
  },
  linkedin: {
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    revokeUrl: 'https://www.linkedin.com/oauth/v2/revoke',
    scopes: ['openid', 'profile', 'w_member_social'],
    scopeSeparator: ' ',
    extraAuthorizeParams: {},
    clientIdParam: 'client_id',
    clientAuth: 'body',
  },
  facebook: {
    authorizeUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v21.0/oauth/access_token',
    revokeUrl: null,
    scopes: ['pages_manage_posts', 'pages_read_engagement'],
    scopeSeparator: ',',
    extraAuthorizeParams: {},
    clientIdParam: 'client_id',
    clientAuth: 'body',
  },
  instagram: {
    authorizeUrl: 'https://www.instagram.com/oauth/authorize',
    tokenUrl: 'https://api.instagram.com/oauth/access_token',
    revokeUrl: null,
    scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
    scopeSeparator: ',',
    extraAuthorizeParams: {},
    clientIdParam: 'client_id',
    clientAuth: 'body',
  },
  tiktok: {
    authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
    revokeUrl: 'https://open.tiktokapis.com/v2/oauth/revoke/',
    scopes: ['user.info.basic', 'video.publish'],
    scopeSeparator: ',',
    extraAuthorizeParams: {},
    clientIdParam: 'client_key',
    clientAuth: 'body',
  },
};

export interface OAuthProviderConfig extends ProviderSettings {
  id: OAuthProviderId;
  clientId: string;
  clientSecret: string;
}

/**
 * A provider's configuration from environment variables (Edge Function secrets or the worker's
 * environment): OAUTH_<PROVIDER>_CLIENT_ID and _CLIENT_SECRET, and OAUTH_<PROVIDER>_SANDBOX_URL,
 * which, when set, sends every endpoint to the local sandbox. Null without client credentials.
 */
export function oauthProviderConfigFromEnv(id: OAuthProviderId, env: Record<string, string | undefined>): OAuthProviderConfig | null {
  const key = id.toUpperCase();
  const sandbox = env[`OAUTH_${key}_SANDBOX_URL`]?.trim().replace(/\/+$/, '');
  const endpoints: Endpoints = sandbox
    ? { authorizeUrl: `${sandbox}/oauth/${id}/authorize`, tokenUrl: `${sandbox}/oauth/${id}/token`, revokeUrl: `${sandbox}/oauth/${id}/revoke` }
    : settings[id];
  const clientId = env[`OAUTH_${key}_CLIENT_ID`];
  const clientSecret = env[`OAUTH_${key}_CLIENT_SECRET`];
  if (!clientId || !clientSecret) return null;
  return { ...settings[id], ...endpoints, id, clientId, clientSecret };
}

interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
  tokenType: string | null;
}

/** A refusal by the provider; `invalid_grant` means the grant is gone (reconnect). */
class ProviderError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(`provider answered ${status} ${code}`);
  }

  /** The grant is revoked or expired: only reconnecting helps, retrying never will. */
  get grantGone(): boolean {
    return this.code === 'invalid_grant' || this.status === 401;
  }
}

function clientRequest(config: OAuthProviderConfig, params: Record<string, string>): RequestInit {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  body.set(config.clientIdParam, config.clientId);
  if (config.clientAuth === 'basic') {
    headers.Authorization = `Basic ${btoa(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`)}`;
  } else {
    body.set('client_secret', config.clientSecret);
  }
  return { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000), redirect: 'manual' };
}

async function tokenCall(config: OAuthProviderConfig, params: Record<string, string>): Promise<TokenSet> {
  const res = await fetch(config.tokenUrl, clientRequest(config, params));
  // Larger than any token answer: reported as not one.
  const text = await readCappedText(res, PROVIDER_ANSWER_MAX_BYTES).catch(() => '');
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: reported by status below.
  }
  if (!res.ok || typeof body.access_token !== 'string' || body.access_token === '') {
    throw new ProviderError(typeof body.error === 'string' ? body.error : 'invalid_response', res.status);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
    scope: typeof body.scope === 'string' ? body.scope : null,
    tokenType: typeof body.token_type === 'string' ? body.token_type : null,
  };
}

export function authorizationUrl(config: OAuthProviderConfig, redirectUri: string, state: string, challenge: string): string {
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set(config.clientIdParam, config.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', config.scopes.join(config.scopeSeparator));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [key, value] of Object.entries(config.extraAuthorizeParams)) url.searchParams.set(key, value);
  return url.toString();
}

export function exchangeCode(config: OAuthProviderConfig, code: string, verifier: string, redirectUri: string): Promise<TokenSet> {
  return tokenCall(config, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri });
}

/** A refreshed token set always carries the refresh token to store next. */
type RefreshedTokens = TokenSet & { refreshToken: string };

export type RefreshResult =
  | { kind: 'refreshed'; tokens: RefreshedTokens }
  /** The provider refused the grant (`code`): drop the refresh token, the user must reconnect. */
  | { kind: 'grantGone'; code: string }
  /** Anything else (network, 5xx, a malformed answer): keep everything and try again later. */
  | { kind: 'failed'; message: string };

/**
 * Refreshes a grant. Providers that rotate refresh tokens (X) answer with a new one, which
 * replaces the old at once (the old one no longer works); the others answer without one, and
 * the stored one stays.
 */
export async function refreshGrant(config: OAuthProviderConfig, refreshToken: string): Promise<RefreshResult> {
  try {
    const tokens = await tokenCall(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
    return { kind: 'refreshed', tokens: { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken } };
  } catch (error) {
    if (error instanceof ProviderError && error.grantGone) return { kind: 'grantGone', code: error.code };
    return { kind: 'failed', message: (error as Error).message };
  }
}

/** Best effort: true when the provider confirmed the revocation. */
export async function revokeToken(config: OAuthProviderConfig, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
  if (!config.revokeUrl) return false;
  try {
    const res = await fetch(config.revokeUrl, clientRequest(config, { token, token_type_hint: hint }));
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
