// The ONE place the worker gets a Google access token for a subscriber. Everything else calls
// googleAccessToken(); wiring it to the real token storage changes this file only.
//
// ASSUMPTION (until the Google OAuth work lands): public.oauth_tokens.access_token_encrypted of
// the user's `google` (or `youtube`) connection holds a token the worker can use as is, and is fresh. The OAuth
// work stores it AES-256-GCM encrypted (key from a secret, key id stored) and refreshes it daily;
// at merge this function decrypts it (and refreshes it when expires_at has passed) instead.
import type pg from 'pg';

export class GoogleAccessError extends Error {
  /** Reconnecting Google Drive is the only fix: retrying cannot help. */
  readonly permanent = true;
}

/** Google grants both: Drive (`google`) and YouTube (`youtube`) are separate connections. */
export type GoogleProvider = 'google' | 'youtube';

export interface AccessTokenSource {
  googleAccessToken(userId: string, provider?: GoogleProvider): Promise<string>;
}

export function databaseTokenSource(db: pg.Pool): AccessTokenSource {
  return {
    async googleAccessToken(userId, provider = 'google') {
      const { rows } = await db.query<{ token: string | null; connected: boolean; status: string | null }>(
        `select t.access_token_encrypted as token, c.connected, c.status
           from public.oauth_connections c
           join public.oauth_tokens t on t.connection_id = c.id
          where c.user_id = $1 and c.provider = $2`,
        [userId, provider],
      );
      const row = rows[0];
      if (!row || !row.connected || !row.token || row.status === 'expired' || row.status === 'failed') {
        throw new GoogleAccessError(
          provider === 'google'
            ? 'Google Drive is not connected. Please reconnect your Google Drive account.'
            : 'YouTube is not connected. Please reconnect your YouTube account.',
        );
      }
      return row.token;
    },
  };
}
