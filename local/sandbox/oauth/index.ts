// OAuth 2.0 providers and WordPress sites for local development and tests.
//   GET  /oauth/<provider>/authorize   consent page ('Authorize' / 'Deny'); needs PKCE S256
//   POST /oauth/<provider>/token       authorization_code (checks code, redirect URI, client,
//                                      PKCE verifier) and refresh_token grants
//   POST /oauth/<provider>/revoke      RFC 7009: ends the grant of the given token
//   GET  /wordpress/<site>/wp-json/wp/v2/users/me   Basic auth with an application password
// Sandbox-only controls for tests (never part of a real provider):
//   POST /oauth/_control/lifetime {provider?, seconds|null}  access-token lifetime from now on
//   POST /oauth/_control/revoke {state}                      revoke the grant begun with a state
//   POST /oauth/_control/expire {state}                      the grant's access tokens expire now
//   GET  /oauth/_control/grant?state=...                     a grant's refresh count and state
//   GET  /wordpress/_control/endless                          bytes the endless site sent, and whether a client still reads
// The WordPress site named SANDBOX_WORDPRESS_ENDLESS_SITE plays a hostile site: its users/me
// answer never ends (a JSON string streamed until the client hangs up).
// Other sandbox modules (Drive, YouTube, X, LinkedIn) ask `identify` who a Bearer token belongs to.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { StackConfig } from '../../config.ts';
import { redirect, sendJson } from '../../lib/http.ts';
import { escapeHtml, htmlPage, sendHtml } from '../http.ts';
import { JsonFile } from '../persist.ts';
import type { SandboxModule, SandboxRequest } from '../types.ts';
import { OAUTH_SANDBOX_PROVIDERS, sandboxClient, type SandboxProvider } from './settings.ts';

export { oauthFunctionEnv } from './settings.ts';

const DEFAULT_LIFETIME_SECONDS = 3600;
const CODE_LIFETIME_MS = 10 * 60 * 1000;

/** Every sandbox WordPress site accepts this user. */
export const SANDBOX_WORDPRESS_USER = { username: 'castloop-editor', password: 'abcd efgh ijkl mnop qrst uvwx' };

/** The sandbox WordPress site whose answer never ends. */
export const SANDBOX_WORDPRESS_ENDLESS_SITE = 'endless-answer';

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

function clientOf(request: SandboxRequest, form: URLSearchParams): { id: string | null; secret: string | null } {
  const header = request.req.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: form.get('client_id') ?? form.get('client_key'), secret: form.get('client_secret') };
}

export function createOAuthSandbox(config: StackConfig, options: { dataDir: string }): OAuthSandbox {
  let state: State = { version: 1, grants: [], lifetimes: {} };
  const file = new JsonFile<State>(path.join(options.dataDir, 'oauth.json'), () => state);
  const loaded = file.load();
  if (loaded?.version === 1) state = loaded;

  const lifetime = (provider: SandboxProvider) => state.lifetimes[provider] ?? state.lifetimes['*'] ?? DEFAULT_LIFETIME_SECONDS;

  function issueAccess(grant: Grant): Record<string, unknown> {
    const access = token(`sbx_${grant.provider}_at_`);
    grant.accessTokens.push(access);
    grant.accessExpiry = { ...grant.accessExpiry, [access]: Date.now() + lifetime(grant.provider) * 1000 };
    file.save();
    return { access_token: access, token_type: 'Bearer', expires_in: lifetime(grant.provider), scope: grant.scope };
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

  function decide(provider: SandboxProvider, request: SandboxRequest): void {
    const form = new URLSearchParams(request.body.toString('utf8'));
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
    state.grants.push(grant);
    file.save();
    back.searchParams.set('code', grant.code!);
    redirect(request.res, back.toString());
  }

  function tokenEndpoint(provider: SandboxProvider, request: SandboxRequest): void {
    const { res } = request;
    const form = new URLSearchParams(request.body.toString('utf8'));
    const client = clientOf(request, form);
    const expected = sandboxClient(provider);
    if (client.id !== expected.id || client.secret !== expected.secret) return sendJson(res, 401, { error: 'invalid_client' });
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const grant = state.grants.find((g) => g.provider === provider && g.code !== null && g.code === form.get('code'));
      if (!grant || grant.revoked || Date.now() - grant.codeIssuedAt > CODE_LIFETIME_MS) return sendJson(res, 400, { error: 'invalid_grant' });
      // A code works once, whatever happens next.
      grant.code = null;
      file.save();
      if (grant.redirectUri !== form.get('redirect_uri')) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
      if (s256(form.get('code_verifier') ?? '') !== grant.codeChallenge) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      grant.refreshToken = token(`sbx_${provider}_rt_`);
      return sendJson(res, 200, { ...issueAccess(grant), refresh_token: grant.refreshToken });
    }
    if (grantType === 'refresh_token') {
      const grant = state.grants.find((g) => g.provider === provider && g.refreshToken !== null && g.refreshToken === form.get('refresh_token'));
      if (!grant || grant.revoked) return sendJson(res, 400, { error: 'invalid_grant' });
      grant.refreshCount += 1;
      // X rotates refresh tokens; the others keep theirs.
      if (provider === 'x') grant.refreshToken = token(`sbx_${provider}_rt_`);
      return sendJson(res, 200, { ...issueAccess(grant), ...(provider === 'x' ? { refresh_token: grant.refreshToken } : {}) });
    }
    sendJson(res, 400, { error: 'unsupported_grant_type' });
  }

  function revokeEndpoint(provider: SandboxProvider, request: SandboxRequest): void {
    const form = new URLSearchParams(request.body.toString('utf8'));
    const value = form.get('token');
    const grant = state.grants.find((g) => g.provider === provider && (g.refreshToken === value || g.accessTokens.includes(value ?? '')));
    if (grant) {
      grant.revoked = true;
      file.save();
    }
    sendJson(request.res, 200, {});
  }

  const jsonBody = (request: SandboxRequest) => JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  const grantOfState = (value: unknown) => state.grants.find((g) => g.state === value);

  function setLifetime(request: SandboxRequest): void {
    const { provider, seconds } = jsonBody(request);
    const key = typeof provider === 'string' && isProvider(provider) ? provider : '*';
    if (seconds === null || seconds === undefined) delete state.lifetimes[key];
    else state.lifetimes[key] = Number(seconds);
    file.save();
    sendJson(request.res, 200, { provider: key, seconds: state.lifetimes[key] ?? DEFAULT_LIFETIME_SECONDS });
  }

  function revokeGrant(request: SandboxRequest): void {
    const grant = grantOfState(jsonBody(request).state);
    if (!grant) return sendJson(request.res, 404, { error: 'no grant for that state' });
    grant.revoked = true;
    file.save();
    sendJson(request.res, 200, { revoked: true });
  }

  function expireGrant(request: SandboxRequest): void {
    const grant = grantOfState(jsonBody(request).state);
    if (!grant) return sendJson(request.res, 404, { error: 'no grant for that state' });
    grant.accessExpiry = Object.fromEntries(grant.accessTokens.map((t) => [t, Date.now() - 1000]));
    file.save();
    sendJson(request.res, 200, { expired: grant.accessTokens.length });
  }

  function showGrant(request: SandboxRequest): void {
    const grant = grantOfState(request.url.searchParams.get('state'));
    if (!grant) sendJson(request.res, 404, { error: 'no grant for that state' });
    else sendJson(request.res, 200, { owner: `grant:${grant.id}`, provider: grant.provider, revoked: grant.revoked, refreshCount: grant.refreshCount, accessTokensIssued: grant.accessTokens.length });
  }

  function wordpressMe(request: SandboxRequest, site: string): void {
    const header = request.req.headers.authorization ?? '';
    const [username, ...rest] = header.toLowerCase().startsWith('basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [''];
    // WordPress accepts application passwords with or without their spaces.
    const password = rest.join(':').replace(/\s+/g, '');
    const user = SANDBOX_WORDPRESS_USER;
    if (username !== user.username || password !== user.password.replace(/\s+/g, '')) {
      sendJson(request.res, 401, { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } });
      return;
    }
    if (site === SANDBOX_WORDPRESS_ENDLESS_SITE) return endlessAnswer(request);
    sendJson(request.res, 200, { id: 1, name: `${user.username} on ${site}`, slug: user.username, roles: ['editor'] });
  }

  const endless = { bytesSent: 0, open: 0 };

  /** A 200 whose JSON never ends: written as fast as the client reads, until it hangs up. */
  function endlessAnswer({ res }: SandboxRequest): void {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    endless.open += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"name":"');
    const more = () => {
      while (!res.destroyed) {
        endless.bytesSent += chunk.length;
        if (!res.write(chunk)) return;
      }
    };
    res.on('drain', more);
    res.on('close', () => {
      endless.open -= 1;
    });
    more();
  }

  return {
    identify(accessToken) {
      const grant = state.grants.find((g) => g.accessTokens.includes(accessToken));
      if (!grant) return null;
      const expiry = grant.accessExpiry?.[accessToken] ?? Infinity;
      return { owner: `grant:${grant.id}`, provider: grant.provider, valid: !grant.revoked && expiry > Date.now() };
    },
    name: 'OAuth providers and WordPress',
    routes(routes) {
      routes
        .on('POST', '/oauth/_control/lifetime', setLifetime)
        .on('POST', '/oauth/_control/revoke', revokeGrant)
        .on('POST', '/oauth/_control/expire', expireGrant)
        .on('GET', '/oauth/_control/grant', showGrant);
      for (const provider of OAUTH_SANDBOX_PROVIDERS) {
        routes
          .on('GET', `/oauth/${provider}/authorize`, ({ res, url }) => {
            const problem = authorizeProblem(provider, url.searchParams);
            if (problem) errorPage(res, problem);
            else sendHtml(res, 200, consentPage(provider, url));
          })
          .on('POST', `/oauth/${provider}/authorize`, (request) => decide(provider, request))
          .on('POST', `/oauth/${provider}/token`, (request) => tokenEndpoint(provider, request))
          .on('POST', `/oauth/${provider}/revoke`, (request) => revokeEndpoint(provider, request));
      }
      routes
        .on('GET', '/wordpress/_control/endless', ({ res }) => sendJson(res, 200, endless))
        .on('GET', '/wordpress/:site/wp-json/wp/v2/users/me', (request) => wordpressMe(request, request.params.site));
    },
    homeSection() {
      return `<h2>OAuth providers and WordPress</h2>
<p>Providers: ${OAUTH_SANDBOX_PROVIDERS.map((p) => `<code>${p}</code>`).join(', ')}. Grants issued: ${state.grants.length}.</p>
<p>WordPress: any site at <code>${escapeHtml(config.urls.sandbox)}/wordpress/&lt;name&gt;</code> accepts the user
<code>${SANDBOX_WORDPRESS_USER.username}</code> with the application password <code>${SANDBOX_WORDPRESS_USER.password}</code>.</p>`;
    },
    async stop() {
      file.flush();
    },
  };
}
