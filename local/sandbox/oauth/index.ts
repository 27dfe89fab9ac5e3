// OAuth 2.0 providers and WordPress sites for local development and tests.
//   GET  /oauth/<provider>/authorize   consent page ('Authorize' / 'Deny'); needs PKCE S256
//   POST /oauth/<provider>/token       authorization_code (checks code, redirect URI, client,
//                                      PKCE verifier) and refresh_token grants
//   POST /oauth/<provider>/revoke      RFC 7009: ends the grant of the given token
//   GET  /wordpress/<site>/wp-json/wp/v2/users/me   Basic auth with an application password
//                                      (wordpress-sites.ts)
// Sandbox-only controls for tests (never part of a real provider):
//   POST /oauth/_control/lifetime {provider?, seconds|null}  access-token lifetime from now on
//   POST /oauth/_control/revoke {state}                      revoke the grant begun with a state
//   POST /oauth/_control/expire {state}                      the grant's access tokens expire now
//   GET  /oauth/_control/grant?state=...                     a grant's refresh count and state
//   GET  /wordpress/_control/endless                          bytes the endless site sent, and whether a client still reads
// Other sandbox modules (Drive, YouTube, X, LinkedIn) ask `identify` who a Bearer token belongs to.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { StackConfig } from '../../config.ts';
import { redirect, sendJson } from '../../lib/http.ts';
import { escapeHtml, htmlPage, sendHtml } from '../http.ts';
import { JsonFile } from '../persist.ts';
import type { SandboxModule, SandboxRequest, SandboxRoutes } from '../types.ts';
import { OAUTH_SANDBOX_PROVIDERS, sandboxClient, type SandboxProvider } from './settings.ts';
import { SANDBOX_WORDPRESS_USER, wordpressSiteRoutes } from './wordpress-sites.ts';

export { oauthFunctionEnv } from './settings.ts';
export { SANDBOX_WORDPRESS_ENDLESS_SITE, SANDBOX_WORDPRESS_USER } from './wordpress-sites.ts';

const DEFAULT_LIFETIME_SECONDS = 3600;
const CODE_LIFETIME_MS = 10 * 60 * 1000;

const labels: Record<SandboxProvider, string> = {
  google: 'Google',
  youtube: 'YouTube',
  facebook: 'Facebook',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  x: 'X',
  linkedin: 'LinkedIn',
};

interface Grant {
  id: string;
  provider: SandboxProvider;
  state: string;
  scope: string;
  redirectUri: string;
  codeChallenge: string;
  code: string | null;
  codeIssuedAt: number;
  accessTokens: string[];
  refreshToken: string | null;
  revoked: boolean;
  refreshCount: number;
  /** When each access token stops working (ms since epoch). */
  accessExpiry?: Record<string, number>;
}

/** Who an access token the sandbox issued belongs to, and whether it still works. */
export interface TokenIdentity {
  /** Stable across refreshes: `grant:<id>`. */
  owner: string;
  provider: SandboxProvider;
  valid: boolean;
}

type OAuthSandbox = SandboxModule & { identify(accessToken: string): TokenIdentity | null };

interface State {
  version: 1;
  grants: Grant[];
  lifetimes: Partial<Record<SandboxProvider | '*', number>>;
}

const isProvider = (value: string): value is SandboxProvider => (OAUTH_SANDBOX_PROVIDERS as readonly string[]).includes(value);
const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const formOf = (request: SandboxRequest) => new URLSearchParams(request.body.toString('utf8'));
const jsonBody = (request: SandboxRequest) => JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;

/** The grants and the access-token lifetimes, kept in oauth.json across restarts. */
class Grants {
  state: State = { version: 1, grants: [], lifetimes: {} };
  private readonly file: JsonFile<State>;

  constructor(dataDir: string) {
    this.file = new JsonFile<State>(path.join(dataDir, 'oauth.json'), () => this.state);
    const loaded = this.file.load();
    if (loaded?.version === 1) this.state = loaded;
  }

  save(): void {
    this.file.save();
  }

  flush(): void {
    this.file.flush();
  }

  lifetime(provider: SandboxProvider): number {
    return this.state.lifetimes[provider] ?? this.state.lifetimes['*'] ?? DEFAULT_LIFETIME_SECONDS;
  }

  /** A new access token of `grant`, as the token endpoint answers it. */
  issueAccess(grant: Grant): Record<string, unknown> {
    const access = token(`sbx_${grant.provider}_at_`);
    grant.accessTokens.push(access);
    grant.accessExpiry = { ...grant.accessExpiry, [access]: Date.now() + this.lifetime(grant.provider) * 1000 };
    this.save();
    return { access_token: access, token_type: 'Bearer', expires_in: this.lifetime(grant.provider), scope: grant.scope };
  }

  ofState(value: unknown): Grant | undefined {
    return this.state.grants.find((g) => g.state === value);
  }
}

function clientOf(request: SandboxRequest, form: URLSearchParams): { id: string | null; secret: string | null } {
  const header = request.req.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: form.get('client_id') ?? form.get('client_key'), secret: form.get('client_secret') };
}

function consentPage(provider: SandboxProvider, url: URL): string {
  const hidden = ['client_id', 'client_key', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']
    .filter((name) => url.searchParams.has(name))
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(url.searchParams.get(name))}">`)
    .join('\n');
  const scopes = (url.searchParams.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
  return htmlPage(
    `Sign in with ${labels[provider]} (sandbox)`,
    `<h1>Sign in with ${escapeHtml(labels[provider])}</h1>
<p class="muted">Local sandbox: no real ${escapeHtml(labels[provider])} account is involved.</p>
<p><strong>Castloop</strong> would like to:</p>
<ul>${scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>
<form method="post" action="/oauth/${provider}/authorize">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="authorize">Authorize</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`,
  );
}

function errorPage(res: SandboxRequest['res'], message: string): void {
  sendHtml(res, 400, htmlPage('Authorization error (sandbox)', `<h1>Authorization error</h1><p class="warning">${escapeHtml(message)}</p>`));
}

/** Checks what the consent page and its decision both need; returns an error or null. */
function authorizeProblem(provider: SandboxProvider, params: URLSearchParams): string | null {
  if ((params.get('client_id') ?? params.get('client_key')) !== sandboxClient(provider).id) return 'Unknown client_id';
  if (!params.get('redirect_uri')) return 'redirect_uri is required';
  if (!params.get('state')) return 'state is required';
  if (!params.get('code_challenge') || params.get('code_challenge_method') !== 'S256') return 'PKCE with code_challenge_method=S256 is required';
  return null;
}

/** The consent page's answer: back to the client with a code, or with access_denied. */
function decide(grants: Grants, provider: SandboxProvider, request: SandboxRequest): void {
  const form = formOf(request);
  const problem = authorizeProblem(provider, form);
  if (problem) return errorPage(request.res, problem);
  const back = new URL(form.get('redirect_uri')!);
  back.searchParams.set('state', form.get('state')!);
  if (form.get('decision') !== 'authorize') {
    back.searchParams.set('error', 'access_denied');
    return redirect(request.res, back.toString());
  }
  const grant: Grant = {
    id: randomBytes(8).toString('hex'),
    provider,
    state: form.get('state')!,
    scope: form.get('scope') ?? '',
    redirectUri: form.get('redirect_uri')!,
    codeChallenge: form.get('code_challenge')!,
    code: token('sbx_code_'),
    codeIssuedAt: Date.now(),
    accessTokens: [],
    refreshToken: null,
    revoked: false,
    refreshCount: 0,
  };
  grants.state.grants.push(grant);
  grants.save();
  back.searchParams.set('code', grant.code!);
  redirect(request.res, back.toString());
}

function tokenEndpoint(grants: Grants, provider: SandboxProvider, request: SandboxRequest): void {
  const { res } = request;
  const form = formOf(request);
  const client = clientOf(request, form);
  const expected = sandboxClient(provider);
  if (client.id !== expected.id || client.secret !== expected.secret) return sendJson(res, 401, { error: 'invalid_client' });
  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') {
    const grant = grants.state.grants.find((g) => g.provider === provider && g.code !== null && g.code === form.get('code'));
    if (!grant || grant.revoked || Date.now() - grant.codeIssuedAt > CODE_LIFETIME_MS) return sendJson(res, 400, { error: 'invalid_grant' });
    // A code works once, whatever happens next.
    grant.code = null;
    grants.save();
    if (grant.redirectUri !== form.get('redirect_uri')) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    if (s256(form.get('code_verifier') ?? '') !== grant.codeChallenge) {
      return sendJson(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    grant.refreshToken = token(`sbx_${provider}_rt_`);
    return sendJson(res, 200, { ...grants.issueAccess(grant), refresh_token: grant.refreshToken });
  }
  if (grantType === 'refresh_token') {
    const grant = grants.state.grants.find((g) => g.provider === provider && g.refreshToken !== null && g.refreshToken === form.get('refresh_token'));
    if (!grant || grant.revoked) return sendJson(res, 400, { error: 'invalid_grant' });
    grant.refreshCount += 1;
    // X rotates refresh tokens; the others keep theirs.
    if (provider === 'x') grant.refreshToken = token(`sbx_${provider}_rt_`);
    return sendJson(res, 200, { ...grants.issueAccess(grant), ...(provider === 'x' ? { refresh_token: grant.refreshToken } : {}) });
  }
  sendJson(res, 400, { error: 'unsupported_grant_type' });
}

function revokeEndpoint(grants: Grants, provider: SandboxProvider, request: SandboxRequest): void {
  const value = formOf(request).get('token');
  const grant = grants.state.grants.find((g) => g.provider === provider && (g.refreshToken === value || g.accessTokens.includes(value ?? '')));
  if (grant) {
    grant.revoked = true;
    grants.save();
  }
  sendJson(request.res, 200, {});
}

/** The sandbox-only controls tests use (never part of a real provider). */
function controlRoutes(routes: SandboxRoutes, grants: Grants): void {
  routes
    .on('POST', '/oauth/_control/lifetime', (request) => {
      const { provider, seconds } = jsonBody(request);
      const key = typeof provider === 'string' && isProvider(provider) ? provider : '*';
      if (seconds === null || seconds === undefined) delete grants.state.lifetimes[key];
      else grants.state.lifetimes[key] = Number(seconds);
      grants.save();
      sendJson(request.res, 200, { provider: key, seconds: grants.state.lifetimes[key] ?? DEFAULT_LIFETIME_SECONDS });
    })
    .on('POST', '/oauth/_control/revoke', (request) => {
      const grant = grants.ofState(jsonBody(request).state);
      if (!grant) return sendJson(request.res, 404, { error: 'no grant for that state' });
      grant.revoked = true;
      grants.save();
      sendJson(request.res, 200, { revoked: true });
    })
    .on('POST', '/oauth/_control/expire', (request) => {
      const grant = grants.ofState(jsonBody(request).state);
      if (!grant) return sendJson(request.res, 404, { error: 'no grant for that state' });
      grant.accessExpiry = Object.fromEntries(grant.accessTokens.map((t) => [t, Date.now() - 1000]));
      grants.save();
      sendJson(request.res, 200, { expired: grant.accessTokens.length });
    })
    .on('GET', '/oauth/_control/grant', (request) => {
      const grant = grants.ofState(request.url.searchParams.get('state'));
      if (!grant) sendJson(request.res, 404, { error: 'no grant for that state' });
      else sendJson(request.res, 200, { owner: `grant:${grant.id}`, provider: grant.provider, revoked: grant.revoked, refreshCount: grant.refreshCount, accessTokensIssued: grant.accessTokens.length });
    });
}

export function createOAuthSandbox(config: StackConfig, options: { dataDir: string }): OAuthSandbox {
  const grants = new Grants(options.dataDir);
  return {
    identify(accessToken) {
      const grant = grants.state.grants.find((g) => g.accessTokens.includes(accessToken));
      if (!grant) return null;
      const expiry = grant.accessExpiry?.[accessToken] ?? Infinity;
      return { owner: `grant:${grant.id}`, provider: grant.provider, valid: !grant.revoked && expiry > Date.now() };
    },
    name: 'OAuth providers and WordPress',
    routes(routes) {
      controlRoutes(routes, grants);
      for (const provider of OAUTH_SANDBOX_PROVIDERS) {
        routes
          .on('GET', `/oauth/${provider}/authorize`, ({ res, url }) => {
            const problem = authorizeProblem(provider, url.searchParams);
            if (problem) errorPage(res, problem);
            else sendHtml(res, 200, consentPage(provider, url));
          })
          .on('POST', `/oauth/${provider}/authorize`, (request) => decide(grants, provider, request))
          .on('POST', `/oauth/${provider}/token`, (request) => tokenEndpoint(grants, provider, request))
          .on('POST', `/oauth/${provider}/revoke`, (request) => revokeEndpoint(grants, provider, request));
      }
      wordpressSiteRoutes(routes);
    },
    homeSection() {
      return `<h2>OAuth providers and WordPress</h2>
<p>Providers: ${OAUTH_SANDBOX_PROVIDERS.map((p) => `<code>${p}</code>`).join(', ')}. Grants issued: ${grants.state.grants.length}.</p>
<p>WordPress: any site at <code>${escapeHtml(config.urls.sandbox)}/wordpress/&lt;name&gt;</code> accepts the user
<code>${SANDBOX_WORDPRESS_USER.username}</code> with the application password <code>${SANDBOX_WORDPRESS_USER.password}</code>.</p>`;
    },
    async stop() {
      grants.flush();
    },
  };
}
