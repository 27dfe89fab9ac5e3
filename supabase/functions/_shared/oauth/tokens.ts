// The OAuth 2.0 calls Castloop makes to a provider's token endpoint: authorization code with
// PKCE (RFC 7636), refresh, and revocation (RFC 7009). Never logs or returns token values.
import type { OAuthProviderConfig } from './providers.ts';

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
  tokenType: string | null;
}

/** A refusal by the provider; `invalid_grant` means the grant is gone (reconnect). */
export class ProviderError extends Error {
  constructor(
    readonly code: string,
    readonly httpStatus: number,
  ) {
    super(`provider answered ${httpStatus} ${code}`);
  }
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

export async function sha256Hex(text: string): Promise<string> {
  return [...(await sha256(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function pkceChallenge(verifier: string): Promise<string> {
  return base64Url(await sha256(verifier));
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
  const text = await res.text();
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

export function refreshTokens(config: OAuthProviderConfig, refreshToken: string): Promise<TokenSet> {
  return tokenCall(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
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
