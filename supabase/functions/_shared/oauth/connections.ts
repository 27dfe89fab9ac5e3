// Stored connections: reading what the dashboard shows, storing tokens (encrypted), removing a
// connection, and refreshing tokens that are due (the daily job and the user's token check).
import type postgres from 'postgres';
import {
  connectionDisplayState,
  isProviderAvailable,
  isOAuthProviderId,
  PROVIDERS,
  type ConnectionEntry,
  type ProviderId,
  type StoredStatus,
  type TokenCheckResult,
} from '../domain/connection-status.ts';
import { db } from '../db.ts';
import { HttpError } from '../http-error.ts';
import { currentKeyId, decryptSecret, encryptSecret } from '../token-crypto.ts';
import { oauthProviderConfig } from './providers.ts';
import { refreshGrant, revokeToken, type RefreshResult } from '../domain-server/oauth-token-endpoint.ts';
import { verifyWordpressCredentials } from './wordpress.ts';

type Sql = postgres.Sql | postgres.TransactionSql;

interface ConnectionRow {
  provider: ProviderId;
  connected: boolean;
  status: StoredStatus;
  account_label: string | null;
  has_access_token: boolean;
  has_refresh_token: boolean;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** `GET /api/oauth-connections`: every provider in the spec's order, in one query. */
export async function listConnections(userId: string): Promise<ConnectionEntry[]> {
  const rows = await db()<(ConnectionRow & { is_internal_test_account: boolean })[]>`
    select p.is_internal_test_account, c.provider, c.connected, c.status, c.account_label,
           c.has_access_token, c.has_refresh_token, c.expires_at, c.created_at, c.updated_at
      from public.profiles p
      left join public.oauth_connections c on c.user_id = p.id
     where p.id = ${userId}`;
  const testAccount = rows[0]?.is_internal_test_account ?? false;
  return PROVIDERS.map(({ id }) => {
    const row = rows.find((r) => r.provider === id);
    return {
      provider: id,
      available: isProviderAvailable(id, testAccount),
      accountLabel: row?.account_label ?? null,
      connected: row?.connected ?? false,
      status: row?.status ?? null,
      hasAccessToken: row?.has_access_token ?? false,
      hasRefreshToken: row?.has_refresh_token ?? false,
      expiresAt: row?.expires_at?.toISOString() ?? null,
      createdAt: (row?.created_at ?? new Date(0)).toISOString(),
      updatedAt: (row?.updated_at ?? new Date(0)).toISOString(),
    };
  });
}

export async function isInternalTestAccount(userId: string): Promise<boolean> {
  const [row] = await db()<{ flag: boolean }[]>`select is_internal_test_account as flag from public.profiles where id = ${userId}`;
  return row?.flag ?? false;
}

interface StoredSecret {
  accessToken: string;
  refreshToken: string | null;
  tokenType: string | null;
  scope: string | null;
  expiresAt: Date | null;
  accountLabel: string | null;
  siteUrl?: string | null;
}

/**
 * Replaces the user's connection to `provider` (only the latest counts) with fresh tokens, in
 * one transaction: a new connection starts its age again (spec section 4's 30/60-day rules).
 */
export async function storeConnection(userId: string, provider: ProviderId, secret: StoredSecret, scopes: string[]): Promise<void> {
  const keyId = await currentKeyId();
  await db().begin(async (sql) => {
    const [connection] = await sql<{ id: string }[]>`
      insert into public.oauth_connections (user_id, provider, connected, status, account_label, expires_at, scopes, created_at)
      values (${userId}, ${provider}, true, 'connected', ${secret.accountLabel}, ${secret.expiresAt}, ${scopes}, now())
      on conflict (user_id, provider) do update
         set connected = true, status = 'connected', account_label = excluded.account_label,
             expires_at = excluded.expires_at, scopes = excluded.scopes, created_at = now()
      returning id`;
    const access = await encryptSecret(secret.accessToken, `${connection.id}:access`);
    const refresh = secret.refreshToken === null ? null : await encryptSecret(secret.refreshToken, `${connection.id}:refresh`);
    await sql`
      insert into private.oauth_tokens (connection_id, user_id, access_token_encrypted, refresh_token_encrypted, token_type, scope, key_id, site_url)
      values (${connection.id}, ${userId}, ${access}, ${refresh}, ${secret.tokenType}, ${secret.scope}, ${keyId}, ${secret.siteUrl ?? null})
      on conflict (connection_id) do update
         set access_token_encrypted = excluded.access_token_encrypted,
             refresh_token_encrypted = excluded.refresh_token_encrypted,
             token_type = excluded.token_type, scope = excluded.scope, key_id = excluded.key_id,
             site_url = excluded.site_url, refresh_lease_until = null, last_refresh_error = null`;
  });
}

interface TokenRow {
  connection_id: string;
  user_id: string;
  provider: ProviderId;
  access_token_encrypted: string | null;
  refresh_token_encrypted: string | null;
  key_id: string | null;
  site_url: string | null;
}

async function decrypted(row: TokenRow, field: 'access' | 'refresh'): Promise<string | null> {
  const sealed = field === 'access' ? row.access_token_encrypted : row.refresh_token_encrypted;
  if (!sealed || !row.key_id) return null;
  return await decryptSecret(sealed, row.key_id, `${row.connection_id}:${field}`);
}

/** Removes the connection (and its tokens), then revokes at the provider where it can. */
export async function removeConnection(userId: string, provider: ProviderId): Promise<boolean> {
  const [row] = await db()<TokenRow[]>`
    with gone as (
      delete from public.oauth_connections c where c.user_id = ${userId} and c.provider = ${provider}
      returning c.id
    )
    select g.id as connection_id, t.user_id, ${provider}::text as provider, t.access_token_encrypted,
           t.refresh_token_encrypted, t.key_id, t.site_url
      from gone g left join private.oauth_tokens t on t.connection_id = g.id`;
  if (!row) return false;
  if (isOAuthProviderId(provider)) {
    try {
      const config = oauthProviderConfig(provider);
      const refresh = await decrypted(row, 'refresh');
      const access = await decrypted(row, 'access');
      // Revoking the refresh token ends the whole grant where the provider supports it.
      if (refresh) await revokeToken(config, refresh, 'refresh_token');
      else if (access) await revokeToken(config, access, 'access_token');
    } catch (error) {
      console.warn(`revoking ${provider} for a removed connection failed: ${(error as Error).message}`);
    }
  }
  return true;
}

type RefreshOutcome = { kind: 'refreshed' } | { kind: 'needsReauth' } | { kind: 'failed'; message: string };

/**
 * Takes the refreshable tokens due within `horizon` (all users, or one) under a lease, so runs
 * at the same time never refresh the same token twice.
 */
async function claimDueTokens(sql: Sql, due: { horizon: string; notRefreshedWithin: string | null; userId: string | null; limit: number }): Promise<TokenRow[]> {
  const { horizon, notRefreshedWithin, userId, limit } = due;
  return await sql<TokenRow[]>`
    with due as (
      select t.connection_id
        from private.oauth_tokens t
        join public.oauth_connections c on c.id = t.connection_id
       where c.provider <> 'wordpress'
         and c.connected
         and t.refresh_token_encrypted is not null
         and c.expires_at is not null
         and c.expires_at < now() + ${horizon}::interval
         and (t.refresh_lease_until is null or t.refresh_lease_until < now())
         and (${notRefreshedWithin}::interval is null or t.last_refresh_at is null or t.last_refresh_at < now() - ${notRefreshedWithin}::interval)
         and (${userId}::uuid is null or t.user_id = ${userId}::uuid)
       order by c.expires_at
       limit ${limit}
       for update of t skip locked
    )
    update private.oauth_tokens t
       set refresh_lease_until = now() + interval '2 minutes'
      from due, public.oauth_connections c
     where t.connection_id = due.connection_id and c.id = t.connection_id
    returning t.connection_id, t.user_id, c.provider, t.access_token_encrypted, t.refresh_token_encrypted, t.key_id, t.site_url`;
}

async function refreshOne(row: TokenRow): Promise<RefreshOutcome> {
  if (!isOAuthProviderId(row.provider)) return { kind: 'failed', message: 'not an OAuth connection' };
  let result: RefreshResult;
  try {
    const refresh = await decrypted(row, 'refresh');
    if (!refresh) return { kind: 'needsReauth' };
    result = await refreshGrant(oauthProviderConfig(row.provider), refresh);
  } catch (error) {
    result = { kind: 'failed', message: (error as Error).message };
  }
  if (result.kind === 'grantGone') {
    // The grant is gone (revoked, expired): only reconnecting helps.
    await db()`select private.record_token_refresh_failure(${row.connection_id}::uuid, ${result.code}, true)`;
    return { kind: 'needsReauth' };
  }
  if (result.kind === 'failed') {
    await db()`select private.record_token_refresh_failure(${row.connection_id}::uuid, ${result.message}, false)`;
    return { kind: 'failed', message: result.message };
  }
  const { tokens } = result;
  const keyId = await currentKeyId();
  const access = await encryptSecret(tokens.accessToken, `${row.connection_id}:access`);
  const refresh = await encryptSecret(tokens.refreshToken, `${row.connection_id}:refresh`);
  await db()`select private.record_token_refresh(${row.connection_id}::uuid, ${access}, ${refresh}, ${keyId}, ${tokens.scope}, ${tokens.expiresAt}::timestamptz)`;
  return { kind: 'refreshed' };
}

interface RefreshRunSummary {
  refreshed: number;
  needsReauth: number;
  failed: number;
}

/**
 * The daily job: every token that expires within a day (plus margin) and was not refreshed in
 * the last 12 hours is refreshed once.
 */
export async function refreshDueTokens(): Promise<RefreshRunSummary> {
  const summary: RefreshRunSummary = { refreshed: 0, needsReauth: 0, failed: 0 };
  for (;;) {
    const batch = await claimDueTokens(db(), { horizon: '26 hours', notRefreshedWithin: '12 hours', userId: null, limit: 50 });
    if (batch.length === 0) break;
    for (const row of batch) {
      const outcome = await refreshOne(row);
      summary[outcome.kind] += 1;
    }
  }
  // Housekeeping: spent and expired OAuth states older than a day.
  await db()`delete from private.oauth_states where expires_at < now() - interval '1 day'`;
  return summary;
}

/** `POST /api/oauth/refresh-all`: refresh what is about to expire, check the rest. */
export async function checkUserTokens(userId: string): Promise<TokenCheckResult> {
  const result: TokenCheckResult = { validated: [], refreshed: [], failed: [], needsReauth: [] };
  const handled = new Set<ProviderId>();
  for (const row of await claimDueTokens(db(), { horizon: '10 minutes', notRefreshedWithin: null, userId, limit: 100 })) {
    const outcome = await refreshOne(row);
    handled.add(row.provider);
    if (outcome.kind === 'failed') result.failed.push({ provider: row.provider, message: outcome.message });
    else result[outcome.kind].push({ provider: row.provider });
  }
  const now = new Date();
  for (const entry of await listConnections(userId)) {
    if (handled.has(entry.provider)) continue;
    const state = connectionDisplayState(entry.provider, entry, now);
    if (state === 'disconnected') continue;
    if (entry.provider === 'wordpress') {
      const outcome = await checkWordpress(userId);
      if (outcome === 'validated' || outcome === 'needsReauth') result[outcome].push({ provider: 'wordpress' });
      else result.failed.push({ provider: 'wordpress', message: outcome.message });
    } else if (state === 'connected') {
      result.validated.push({ provider: entry.provider });
    } else {
      result.needsReauth.push({ provider: entry.provider });
    }
  }
  return result;
}

async function checkWordpress(userId: string): Promise<'validated' | 'needsReauth' | { message: string }> {
  const [row] = await db()<TokenRow[]>`
    select t.connection_id, t.user_id, c.provider, t.access_token_encrypted, t.refresh_token_encrypted, t.key_id, t.site_url
      from public.oauth_connections c join private.oauth_tokens t on t.connection_id = c.id
     where c.user_id = ${userId} and c.provider = 'wordpress'`;
  const sealed = row ? await decrypted(row, 'access') : null;
  if (!row?.site_url || !sealed) return 'needsReauth';
  const { username, password } = JSON.parse(sealed) as { username: string; password: string };
  try {
    await verifyWordpressCredentials(row.site_url, username, password);
    return 'validated';
  } catch (error) {
    // Refused credentials need new ones; an unreachable site is a failure to retry.
    return error instanceof HttpError && error.status === 400 ? 'needsReauth' : { message: (error as Error).message };
  }
}
