// Checks the state (unused, unexpired, from the browser that started the flow), exchanges the
// code with the PKCE verifier, stores the tokens encrypted, and sends the user back to the
// dashboard with the outcome. Any failure stores nothing and reports 'failed'.
import { isOAuthProviderId, type OAuthProviderId } from '../_shared/domain/connection-status.ts';
import { settings } from '../_shared/config.ts';
import { db } from '../_shared/db.ts';
import { storeConnection } from '../_shared/oauth/connections.ts';
import { OAUTH_BINDING_COOKIE, oauthProviderConfig, oauthRedirectUri } from '../_shared/oauth/providers.ts';
import { exchangeCode } from '../_shared/domain-server/oauth-token-endpoint.ts';
import { sha256Hex } from '../_shared/oauth/tokens.ts';

function backToDashboard(provider: string | null, outcome: 'connected' | 'failed'): Response {
  const target = new URL(`${settings().siteUrl}/dashboard`);
  if (provider) target.searchParams.set('connection', provider);
  target.searchParams.set('outcome', outcome);
  return new Response(null, { status: 303, headers: { Location: target.toString(), 'Cache-Control': 'no-store' } });
}

function cookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

interface SpentState {
  user_id: string;
  provider: string;
  code_verifier: string;
  browser_binding_hash: string | null;
  fresh: boolean;
}

export async function handleOAuthCallback(request: Request): Promise<Response> {
  if (request.method !== 'GET') return new Response(JSON.stringify({ message: 'Method not allowed' }), { status: 405 });
  const params = new URL(request.url).searchParams;
  const state = params.get('state') ?? '';
  if (state.length < 16 || state.length > 200) return backToDashboard(null, 'failed');

  // Spent on first sight, whatever follows: a state never works twice.
  const [spent] = await db()<SpentState[]>`
    update private.oauth_states set used_at = now()
     where state = ${state} and used_at is null
    returning user_id, provider, code_verifier, browser_binding_hash, expires_at > now() as fresh`;
  if (!spent || !isOAuthProviderId(spent.provider)) {
    console.warn('oauth-callback: unknown or already used state');
    return backToDashboard(null, 'failed');
  }
  const provider: OAuthProviderId = spent.provider;
  const fail = (reason: string) => {
    console.warn(`oauth-callback (${provider}): ${reason}`);
    return backToDashboard(provider, 'failed');
  };
  if (!spent.fresh) return fail('state expired');
  const binding = cookie(request, OAUTH_BINDING_COOKIE);
  if (!binding || !spent.browser_binding_hash || (await sha256Hex(binding)) !== spent.browser_binding_hash) {
    return fail('state was started by another browser');
  }
  const providerError = params.get('error');
  if (providerError) return fail(`provider answered ${providerError.slice(0, 100)}`);
  const code = params.get('code');
  if (!code || code.length > 2000) return fail('no authorization code');

  try {
    const config = oauthProviderConfig(provider);
    const tokens = await exchangeCode(config, code, spent.code_verifier, oauthRedirectUri());
    await storeConnection(
      spent.user_id,
      provider,
      { ...tokens, accountLabel: null },
      (tokens.scope ?? config.scopes.join(' ')).split(/[\s,]+/).filter(Boolean),
    );
  } catch (error) {
    return fail(`code exchange failed: ${(error as Error).message}`);
  }
  return backToDashboard(provider, 'connected');
}
