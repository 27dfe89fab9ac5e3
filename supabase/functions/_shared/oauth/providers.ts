// Each OAuth provider's endpoints, scopes and client credentials, from configuration.
// OAUTH_<PROVIDER>_SANDBOX_URL set (the local stack sets it) sends the provider's endpoints to
// the sandbox at that address; empty or unset means the real service. Client ids and secrets
// are function secrets: OAUTH_<PROVIDER>_CLIENT_ID and OAUTH_<PROVIDER>_CLIENT_SECRET.
import { providerLabel, type OAuthProviderId } from '../domain/connection-status.ts';
import { HttpError } from '../http-error.ts';

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
    scopes: ['w_member_social'],
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

export function oauthProviderConfig(id: OAuthProviderId): OAuthProviderConfig {
  const key = id.toUpperCase();
  const sandbox = Deno.env.get(`OAUTH_${key}_SANDBOX_URL`)?.trim().replace(/\/+$/, '');
  const endpoints: Endpoints = sandbox
    ? { authorizeUrl: `${sandbox}/oauth/${id}/authorize`, tokenUrl: `${sandbox}/oauth/${id}/token`, revokeUrl: `${sandbox}/oauth/${id}/revoke` }
    : settings[id];
  const clientId = Deno.env.get(`OAUTH_${key}_CLIENT_ID`);
  const clientSecret = Deno.env.get(`OAUTH_${key}_CLIENT_SECRET`);
  if (!clientId || !clientSecret) throw new HttpError(503, `${providerLabel(id)} connections are not configured`);
  return { ...settings[id], ...endpoints, id, clientId, clientSecret };
}

/** The one redirect URI every provider is registered with: the site's `/oauth/callback`. */
export function oauthRedirectUri(): string {
  const explicit = Deno.env.get('OAUTH_REDIRECT_URI');
  if (explicit) return explicit;
  return `${(Deno.env.get('SITE_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '')}/oauth/callback`;
}

/** The HttpOnly cookie binding an OAuth flow to the browser that started it. */
export const OAUTH_BINDING_COOKIE = 'castloop-oauth-binding';
