// The display state the dashboard shows (connectionDisplayState, TypeScript) and the one that
// gates episode submission (private.connection_display_state, SQL) are fed the same rows and
// must agree on every one; episode_stats()'s Google Drive reasons follow the same state.
import { describe, expect, it } from 'vitest';
import { connectionDisplayState, PROVIDER_IDS, type ConnectionFacts, type StoredStatus } from '@domain/connection-status';
import { connectGoogle, createReadySubscriber, inRolledBackTx, withDb } from './db-support.ts';

const now = new Date('2026-11-26T12:00:00.000Z');
const offset = (ms: number) => new Date(now.getTime() + ms).toISOString();
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

// Every boundary of spec section 4, on both sides.
const expiries = [null, offset(-1000), offset(0), offset(1000), offset(60 * MIN)];
const createdAts = [offset(-DAY), offset(-30 * DAY), offset(-30 * DAY - MIN), offset(-60 * DAY), offset(-60 * DAY - MIN)];
const updatedAts = [offset(-9 * MIN), offset(-10 * MIN), offset(-10 * MIN + 1), offset(-DAY)];
const flags: [boolean, boolean, boolean][] = [
  [true, true, true],
  [true, false, true],
  [false, true, true],
  [true, true, false],
];
const statuses: StoredStatus[] = [null, 'connected', 'expired', 'failed'];

function rows(): { provider: (typeof PROVIDER_IDS)[number]; facts: ConnectionFacts }[] {
  const out: { provider: (typeof PROVIDER_IDS)[number]; facts: ConnectionFacts }[] = [];
  for (const provider of PROVIDER_IDS)
    for (const expiresAt of expiries)
      for (const createdAt of createdAts)
        for (const updatedAt of updatedAts)
          for (const [hasAccessToken, hasRefreshToken, connected] of flags)
            for (const status of statuses) out.push({ provider, facts: { connected, status, hasAccessToken, hasRefreshToken, expiresAt, createdAt, updatedAt } });
  return out;
}

describe('display state: TypeScript and SQL agree', () => {
  it('on every combination of the boundaries', async () => {
    const cases = rows();
    const sqlStates = await withDb(async (db) => {
      const { rows: result } = await db.query<{ state: string }>(
        `select private.connection_display_state(r.provider, r.connected, r.status, r.has_access, r.has_refresh,
                r.expires_at, r.created_at, r.updated_at, $2::timestamptz) as state
           from jsonb_to_recordset($1::jsonb) as r(n integer, provider public.provider, connected boolean, status text, has_access boolean,
                has_refresh boolean, expires_at timestamptz, created_at timestamptz, updated_at timestamptz)
          order by r.n`,
        [
          JSON.stringify(
            cases.map(({ provider, facts }, n) => ({
              n,
              provider,
              connected: facts.connected,
              status: facts.status,
              has_access: facts.hasAccessToken,
              has_refresh: facts.hasRefreshToken,
              expires_at: facts.expiresAt,
              created_at: facts.createdAt,
              updated_at: facts.updatedAt,
            })),
          ),
          now.toISOString(),
        ],
      );
      return result.map((r) => r.state);
    });
    expect(sqlStates.length).toBe(cases.length);
    const disagreements = cases
      .map((c, i) => ({ ...c, ts: connectionDisplayState(c.provider, c.facts, now), sql: sqlStates[i] }))
      .filter((c) => c.ts !== c.sql);
    expect(disagreements).toEqual([]);
    // The grid reaches every state.
    expect(new Set(sqlStates)).toEqual(new Set(['connected', 'expired', 'failed', 'disconnected']));
  });

  it('episode_stats() blocks on exactly the Google Drive states the panel shows as not working', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createReadySubscriber(db, 'growth');
      const at = new Date();
      const variants = [
        { expiresAt: new Date(at.getTime() + 3600_000).toISOString() },
        { expiresAt: new Date(at.getTime() - 1000).toISOString() },
        { refreshToken: false },
        { accessToken: false },
        { connected: false },
        { expiresAt: null },
      ];
      for (const variant of variants) {
        await connectGoogle(db, user.id, variant);
        const { rows: [row] } = await db.query(
          `select c.connected, c.status, c.has_access_token, c.has_refresh_token, c.expires_at, c.created_at, c.updated_at,
                  private.episode_stats_for($1, $2) ->> 'blockReason' as reason
             from public.oauth_connections c where c.user_id = $1 and c.provider = 'google'`,
          [user.id, at.toISOString()],
        );
        const state = connectionDisplayState(
          'google',
          {
            connected: row.connected,
            status: row.status,
            hasAccessToken: row.has_access_token,
            hasRefreshToken: row.has_refresh_token,
            expiresAt: row.expires_at?.toISOString() ?? null,
            createdAt: row.created_at.toISOString(),
            updatedAt: row.updated_at.toISOString(),
          },
          at,
        );
        const expected = state === 'disconnected' ? 'google_drive_required' : state === 'connected' ? null : 'google_drive_invalid';
        expect({ variant, reason: row.reason }).toEqual({ variant, reason: expected });
      }
    });
  });
});
