// The ONE place the worker gets a Google access token for a subscriber. Everything else calls
// googleAccessToken(). Tokens are stored by the Edge Functions in private.oauth_tokens,
// AES-256-GCM encrypted (domain/token-cipher.ts, the same keyring), and refreshed by the
// scheduled oauth-refresh job; a connection whose token has expired needs that refresh (or a
// reconnection) before the worker can use it.
import type pg from 'pg';
import { openToken, parseTokenKeyring, type TokenKeyring } from '../../supabase/functions/_shared/domain/token-cipher.ts';

class GoogleAccessError extends Error {
  /** Reconnecting Google Drive is the only fix: retrying cannot help. */
  readonly permanent = true;
}

/** Google grants both: Drive (`google`) and YouTube (`youtube`) are separate connections. */
type GoogleProvider = 'google' | 'youtube';

export interface AccessTokenSource {
  googleAccessToken(userId: string, provider?: GoogleProvider): Promise<string>;
}

export function databaseTokenSource(db: pg.Pool, keyringSpec: string): AccessTokenSource {
  let keyring: Promise<TokenKeyring> | null = null;
  return {
    async googleAccessToken(userId, provider = 'google') {
      const { rows } = await db.query<{ connection_id: string; token: string | null; key_id: string | null; connected: boolean; status: string | null; expired: boolean }>(
        `select c.id as connection_id, t.access_token_encrypted as token, t.key_id, c.connected, c.status,
                coalesce(c.expires_at <= now(), false) as expired
           from public.oauth_connections c
           join private.oauth_tokens t on t.connection_id = c.id
          where c.user_id = $1 and c.provider = $2`,
        [userId, provider],
      );
      const row = rows[0];
      if (!row || !row.connected || !row.token || !row.key_id || row.expired || row.status === 'expired' || row.status === 'failed') {
        throw new GoogleAccessError(
          provider === 'google'
            ? 'Google Drive is not connected. Please reconnect your Google Drive account.'
            : 'YouTube is not connected. Please reconnect your YouTube account.',
        );
      }
      keyring ??= parseTokenKeyring(keyringSpec);
      return openToken(await keyring, row.token, row.key_id, `${row.connection_id}:access`);
    },
  };
}
