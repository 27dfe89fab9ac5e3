// Social and cloud-drive connections (spec sections 2, 4, 7 and 8): the list the dashboard
// shows, starting an OAuth 2.0 + PKCE flow, disconnecting, the token check, and WordPress
// application passwords. The OAuth callback is its own function (oauth-callback). No token,
// refresh token or password is ever part of an answer.
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isOAuthProviderId, isProviderAvailable, isProviderId, providerLabel, type ProviderId } from '../../_shared/domain/connection-status.ts';
import { wordpressCredentialsSchema } from '../../_shared/domain/wordpress-credentials.ts';
import { settings } from '../../_shared/config.ts';
import { db } from '../../_shared/db.ts';
import { databaseError } from '../../_shared/database-errors.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import { checkUserTokens, isInternalTestAccount, listConnections, removeConnection, storeConnection } from '../../_shared/oauth/connections.ts';
import { OAUTH_BINDING_COOKIE, oauthRedirectUri, oauthProviderConfig } from '../../_shared/oauth/providers.ts';
import { authorizationUrl } from '../../_shared/domain-server/oauth-token-endpoint.ts';
import { pkceChallenge, randomToken, sha256Hex } from '../../_shared/oauth/tokens.ts';
import { normaliseSiteUrl, verifyWordpressCredentials } from '../../_shared/oauth/wordpress.ts';
import { userClient } from '../../_shared/supabase-clients.ts';
import { requireCaller } from '../../_shared/session.ts';

export const connectionRoutes = new Hono();

function knownProvider(value: string): ProviderId {
  if (!isProviderId(value)) throw new HttpError(404, `Unknown provider: ${value.slice(0, 50)}`);
  return value;
}

async function requireAvailable(userId: string, provider: ProviderId): Promise<void> {
  if (!isProviderAvailable(provider, await isInternalTestAccount(userId))) {
    throw new HttpError(403, `${providerLabel(provider)} connections are not available yet`);
  }
}

/**
 * The browser that starts a flow carries a random binding in an HttpOnly cookie; its hash is
 * stored with the state, and the callback accepts the state only from that browser.
 */
function browserBinding(c: Context): string {
  const existing = getCookie(c, OAUTH_BINDING_COOKIE);
  const binding = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomToken();
  setCookie(c, OAUTH_BINDING_COOKIE, binding, { path: '/', httpOnly: true, sameSite: 'Lax', secure: settings().secureCookies, maxAge: 600 });
  return binding;
}

connectionRoutes.get('/oauth-connections', async (c) => {
  const caller = await requireCaller(c);
  return c.json(await listConnections(caller.userId));
});

connectionRoutes.patch('/oauth-connections/:provider/disconnect', async (c) => {
  const caller = await requireCaller(c);
  const provider = knownProvider(c.req.param('provider'));
  if (!(await removeConnection(caller.userId, provider))) throw new HttpError(404, `No ${providerLabel(provider)} connection to remove`);
  return c.json({ success: true });
});

connectionRoutes.post('/oauth/refresh-all', async (c) => {
  const caller = await requireCaller(c);
  return c.json(await checkUserTokens(caller.userId));
});

connectionRoutes.post('/oauth/wordpress/connect', async (c) => {
  const caller = await requireCaller(c);
  const { username, password, siteUrl } = await parseJsonBody(c.req.raw, wordpressCredentialsSchema);
  const { data: profile, error } = await userClient(caller.accessToken)
    .from('profiles')
    .select('podcast_website')
    .eq('id', caller.userId)
    .maybeSingle();
  if (error) throw databaseError(error, 'Could not read the profile');
  const site = siteUrl || profile?.podcast_website?.trim();
  if (!site) throw new HttpError(400, 'Please enter the address of your WordPress site');
  const base = normaliseSiteUrl(site);
  const user = await verifyWordpressCredentials(base, username, password);
  await storeConnection(
    caller.userId,
    'wordpress',
    {
      accessToken: JSON.stringify({ username, password }),
      refreshToken: null,
      tokenType: 'application_password',
      scope: null,
      expiresAt: null,
      accountLabel: `${user.name} (${new URL(base).host})`,
      siteUrl: base,
    },
    [],
  );
  return c.json({ success: true });
});

connectionRoutes.delete('/oauth/wordpress/disconnect', async (c) => {
  const caller = await requireCaller(c);
  if (!(await removeConnection(caller.userId, 'wordpress'))) throw new HttpError(404, 'No WordPress connection to remove');
  return c.json({ success: true });
});

connectionRoutes.get('/oauth/:provider', async (c) => {
  const caller = await requireCaller(c);
  const provider = knownProvider(c.req.param('provider'));
  if (!isOAuthProviderId(provider)) throw new HttpError(400, 'WordPress connects with an application password');
  await requireAvailable(caller.userId, provider);
  const config = oauthProviderConfig(provider);
  const state = randomToken();
  const verifier = randomToken(48);
  const bindingHash = await sha256Hex(browserBinding(c));
  await db()`
    insert into private.oauth_states (state, user_id, provider, code_verifier, browser_binding_hash, expires_at)
    values (${state}, ${caller.userId}, ${provider}, ${verifier}, ${bindingHash}, now() + interval '10 minutes')`;
  return c.json({ authUrl: authorizationUrl(config, oauthRedirectUri(), state, await pkceChallenge(verifier)) });
});
