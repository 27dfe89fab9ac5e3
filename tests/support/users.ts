// Test users in any state, created through the Auth admin API like real accounts, with their
// subscription and onboarding state written as the Stripe webhook and onboarding would.
import type pg from 'pg';
import { oauthFunctionEnv } from '../../local/sandbox/oauth/settings.ts';
import { parseTokenKeyring, sealToken } from '../../supabase/functions/_shared/domain-server/token-cipher.ts';
import { config, serviceClient, uniqueEmail, withDb } from './stack.ts';

export type UserState = 'new' | 'subscribed' | 'onboarded' | 'admin';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export interface UserOptions {
  password?: string;
  tier?: string;
  /** A Google Drive connection: working, with an expired token, or none (default). */
  drive?: 'connected' | 'expired';
  /** Podcast hosting configured by the operator (submissions are blocked until then). */
  hostingReady?: boolean;
}

export async function createUser(state: UserState, options: UserOptions = {}): Promise<TestUser> {
  const email = uniqueEmail(state);
  const password = options.password ?? 'correct-horse-battery';
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { first_name: 'Test', last_name: state },
    app_metadata: state === 'admin' ? { role: 'admin' } : undefined,
  });
  if (error || !data.user) throw new Error(`could not create a ${state} user: ${error?.message}`);
  const user = { id: data.user.id, email, password };
  if (state === 'subscribed' || state === 'onboarded') await activateSubscription(user.id, options.tier ?? 'growth');
  if (state === 'onboarded') await markOnboarded(user.id);
  if (options.drive) await connectDrive(user.id, options.drive);
  if (options.hostingReady) await markHostingReady(user.id);
  return user;
}

export async function activateSubscription(userId: string, tier: string): Promise<void> {
  await withDb((db) =>
    db.query(
      `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, current_period_end)
       values ($1::uuid, $2, $3, 'active', $4, now() + interval '30 days')
       on conflict (user_id) do update set status = 'active', tier = excluded.tier`,
      [userId, `cus_test_${userId.replace(/-/g, '')}`, `sub_test_${userId.replace(/-/g, '')}`, tier],
    ),
  );
}

export async function markOnboarded(userId: string): Promise<void> {
  await withDb((db) => db.query('update public.profiles set onboarding_completed_at = now() where id = $1', [userId]));
}

/** A Google Drive connection as the OAuth callback stores it (token material is opaque here). */
export async function connectDrive(userId: string, state: 'connected' | 'expired' = 'connected'): Promise<void> {
  await withDb(async (db) => {
    const { rows } = await db.query(
      `insert into public.oauth_connections (user_id, provider, connected, status, account_label, expires_at)
       values ($1::uuid, 'google', true, 'connected', 'drive@example.com', now() + $2::interval)
       on conflict (user_id, provider) do update set connected = true, status = 'connected', expires_at = excluded.expires_at
       returning id`,
      [userId, state === 'connected' ? '1 hour' : '-1 hour'],
    );
    await storeOAuthTokens(db, rows[0].id, userId, 'test-access-token', 'test-refresh-token');
  });
}

/** Stores a connection's tokens as the OAuth callback does: encrypted with this stack's keyring. */
export async function storeOAuthTokens(db: pg.Client, connectionId: string, userId: string, accessToken: string, refreshToken: string): Promise<void> {
  const keyring = await parseTokenKeyring(oauthFunctionEnv(config).TOKEN_ENCRYPTION_KEYS);
  await db.query(
    `insert into private.oauth_tokens (connection_id, user_id, access_token_encrypted, refresh_token_encrypted, token_type, key_id)
     values ($1, $2::uuid, $3, $4, 'Bearer', $5)
     on conflict (connection_id) do update
       set access_token_encrypted = excluded.access_token_encrypted, refresh_token_encrypted = excluded.refresh_token_encrypted, key_id = excluded.key_id`,
    [
      connectionId,
      userId,
      await sealToken(keyring, accessToken, `${connectionId}:access`),
      await sealToken(keyring, refreshToken, `${connectionId}:refresh`),
      keyring.currentId,
    ],
  );
}

export async function markHostingReady(userId: string): Promise<void> {
  await withDb((db) => db.query('update public.profiles set hosting_ready_at = now() - interval \'1 minute\' where id = $1', [userId]));
}
