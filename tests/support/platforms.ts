// The platforms a subscriber connects, as the tests connect them: a grant from the OAuth sandbox
// (the consent and the callback's code exchange), stored as the connection the functions would
// store; a WordPress site of the sandbox with its application password.
import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_WORDPRESS_USER } from '../../local/sandbox/oauth/index.ts';
import { sandboxClient, type SandboxProvider } from '../../local/sandbox/oauth/settings.ts';
import { config, withDb } from './stack.ts';
import { storeOAuthTokens, type TestUser } from './users.ts';

export interface Grant {
  state: string;
  accessToken: string;
  refreshToken: string;
}

/** A grant from the OAuth sandbox, as a subscriber's consent and the callback's code exchange make one. */
export async function sandboxGrant(provider: SandboxProvider): Promise<Grant> {
  const client = sandboxClient(provider);
  const state = randomBytes(12).toString('hex');
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${config.urls.web}/oauth/callback`;
  const consent = await fetch(`${config.urls.sandbox}/oauth/${provider}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({
      client_id: client.id,
      redirect_uri: redirectUri,
      scope: 'upload',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      decision: 'authorize',
    }),
  });
  const code = new URL(consent.headers.get('location') as string).searchParams.get('code') as string;
  const res = await fetch(`${config.urls.sandbox}/oauth/${provider}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: client.id, client_secret: client.secret }),
  });
  const tokens = (await res.json()) as { access_token: string; refresh_token: string };
  return { state, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** Stores the grant as the subscriber's connection, its access token due within a minute. */
export async function connect(user: TestUser, provider: SandboxProvider, grant: Grant, expiresIn = '1 minute'): Promise<string> {
  return withDb(async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.oauth_connections (user_id, provider, connected, status, account_label, expires_at)
       values ($1, $2, true, 'connected', 'podcaster@example.com', now() + $3::interval) returning id`,
      [user.id, provider, expiresIn],
    );
    await storeOAuthTokens(db, rows[0].id, user.id, grant.accessToken, grant.refreshToken);
    return rows[0].id;
  });
}

/** A WordPress site in the sandbox, connected with its application password as the functions store it. */
export async function connectWordpress(user: TestUser, site: string): Promise<void> {
  await withDb(async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.oauth_connections (user_id, provider, connected, status, account_label) values ($1, 'wordpress', true, 'connected', $2) returning id`,
      [user.id, site],
    );
    await storeOAuthTokens(db, rows[0].id, user.id, JSON.stringify({ username: SANDBOX_WORDPRESS_USER.username, password: SANDBOX_WORDPRESS_USER.password }), 'unused');
    await db.query(`update private.oauth_tokens set refresh_token_encrypted = null, site_url = $2 where connection_id = $1`, [rows[0].id, `${config.urls.sandbox}/wordpress/${site}`]);
  });
}
