// The ONE place the worker gets a subscriber's access token for a connection (Google Drive,
// YouTube, X, LinkedIn). Tokens are stored by the Edge Functions in private.oauth_tokens,
// AES-256-GCM encrypted (domain-server/token-cipher.ts, the same keyring). A token that expires within
// five minutes is refreshed here, at the provider's token endpoint, with the same code the
// functions use (domain-server/oauth-token-endpoint.ts), and stored for the next user of the row.
//
// Concurrency: the refresh happens with the token row locked (`for update`), so a second worker
// waits and then reads the token the first one stored; a refresh the functions run (daily job,
// token check) holds a lease on the row, and the worker waits for it to end. A rotated refresh
// token (X) is therefore never refreshed twice or overwritten by an older one.
import type pg from 'pg';
import { ProcessingFailure } from '../failure.ts';
import { providerLabel, type OAuthProviderId, type ProviderId } from '../../supabase/functions/_shared/domain/connection-status.ts';
import { refreshGrant, type OAuthProviderConfig } from '../../supabase/functions/_shared/domain-server/oauth-token-endpoint.ts';
import { openToken, parseTokenKeyring, sealToken, type TokenKeyring } from '../../supabase/functions/_shared/domain-server/token-cipher.ts';

/** What the worker tells the subscriber when a connection cannot be used without reconnecting (a permanent failure: reconnecting is the only fix). */
function reconnectMessage(provider: ProviderId): string {
  const label = providerLabel(provider);
  return `${label} is not connected. Please reconnect your ${label} account.`;
}

interface WordpressSite {
  siteUrl: string;
  username: string;
  password: string;
}

export interface AccessTokenSource {
  accessToken(userId: string, provider: OAuthProviderId): Promise<string>;
  /** The WordPress site and application password the subscriber connected. */
  wordpressSite(userId: string): Promise<WordpressSite>;
}

/** Refresh when the access token expires within this long: a Drive upload must not outlive it. */
const REFRESH_MARGIN = '5 minutes';
/** How long to wait for a refresh someone else (the daily job, another worker) is running. */
const LEASE_WAIT_MS = 30_000;

interface TokenRow {
  connection_id: string;
  connected: boolean;
  status: string | null;
  access: string | null;
  refresh: string | null;
  key_id: string | null;
  due: boolean;
  leased: boolean;
}

export function databaseTokenSource(
  db: pg.Pool,
  keyringSpec: string,
  clients: Partial<Record<OAuthProviderId, OAuthProviderConfig>>,
): AccessTokenSource {
  let keyring: Promise<TokenKeyring> | null = null;
  const ring = () => (keyring ??= parseTokenKeyring(keyringSpec));

  async function attempt(client: pg.PoolClient, userId: string, provider: OAuthProviderId): Promise<string | 'leased'> {
    // Lock first, read after: a statement that waited for the lock reads what the holder stored
    // (read committed takes a new snapshot per statement; a joined row would be read stale).
    await client.query(
      `select 1 from private.oauth_tokens t
        where t.connection_id = (select id from public.oauth_connections where user_id = $1 and provider = $2)
          for update`,
      [userId, provider],
    );
    const { rows } = await client.query<TokenRow>(
      `select c.id as connection_id, c.connected, c.status, t.access_token_encrypted as access,
              t.refresh_token_encrypted as refresh, t.key_id,
              coalesce(c.expires_at < now() + $3::interval, false) as due,
              coalesce(t.refresh_lease_until > now(), false) as leased
         from public.oauth_connections c
         join private.oauth_tokens t on t.connection_id = c.id
        where c.user_id = $1 and c.provider = $2`,
      [userId, provider, REFRESH_MARGIN],
    );
    const row = rows[0];
    // 'failed' is what a refused refresh leaves: the grant is gone.
    if (!row || !row.connected || !row.access || !row.key_id || row.status === 'failed') throw new ProcessingFailure(reconnectMessage(provider), true);
    const keys = await ring();
    if (!row.due && row.status !== 'expired') return openToken(keys, row.access, row.key_id, `${row.connection_id}:access`);
    if (row.leased) return 'leased';
    const config = clients[provider];
    if (!row.refresh) throw new ProcessingFailure(reconnectMessage(provider), true);
    if (!config) throw new Error(`${providerLabel(provider)} client credentials are not configured for the worker (OAUTH_${provider.toUpperCase()}_CLIENT_ID)`);

    const refreshToken = await openToken(keys, row.refresh, row.key_id, `${row.connection_id}:refresh`);
    const result = await refreshGrant(config, refreshToken);
    if (result.kind === 'grantGone') {
      await client.query(`select private.record_token_refresh_failure($1, $2, true)`, [row.connection_id, result.code]);
      await client.query('commit');
      throw new ProcessingFailure(reconnectMessage(provider), true);
    }
    if (result.kind === 'failed') {
      await client.query(`select private.record_token_refresh_failure($1, $2, false)`, [row.connection_id, result.message]);
      await client.query('commit');
      // Not permanent: the job is retried and the next attempt refreshes again.
      throw new Error(`Refreshing the ${providerLabel(provider)} token failed: ${result.message}`);
    }
    const { tokens } = result;
    await client.query(`select private.record_token_refresh($1, $2, $3, $4, $5, $6)`, [
      row.connection_id,
      await sealToken(keys, tokens.accessToken, `${row.connection_id}:access`),
      await sealToken(keys, tokens.refreshToken, `${row.connection_id}:refresh`),
      keys.currentId,
      tokens.scope,
      tokens.expiresAt,
    ]);
    return tokens.accessToken;
  }

  return {
    async wordpressSite(userId) {
      const { rows } = await db.query<{ connection_id: string; site_url: string | null; sealed: string | null; key_id: string | null; connected: boolean }>(
        `select c.id as connection_id, t.site_url, t.access_token_encrypted as sealed, t.key_id, c.connected
           from public.oauth_connections c join private.oauth_tokens t on t.connection_id = c.id
          where c.user_id = $1 and c.provider = 'wordpress'`,
        [userId],
      );
      const row = rows[0];
      if (!row?.connected || !row.site_url || !row.sealed || !row.key_id) throw new ProcessingFailure(reconnectMessage('wordpress'), true);
      // Stored by the functions as JSON {username, password}, encrypted like a token.
      const credentials = JSON.parse(await openToken(await ring(), row.sealed, row.key_id, `${row.connection_id}:access`)) as { username: string; password: string };
      return { siteUrl: row.site_url.replace(/\/+$/, ''), ...credentials };
    },
    async accessToken(userId, provider) {
      const deadline = Date.now() + LEASE_WAIT_MS;
      for (;;) {
        const client = await db.connect();
        let outcome: string | 'leased';
        try {
          await client.query('begin');
          outcome = await attempt(client, userId, provider);
          await client.query(outcome === 'leased' ? 'rollback' : 'commit');
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
        if (outcome !== 'leased') return outcome;
        if (Date.now() > deadline) throw new Error(`The ${providerLabel(provider)} token is being refreshed elsewhere; try again`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  };
}
