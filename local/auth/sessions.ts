// Sessions and refresh tokens: auth.sessions rows, auth.refresh_tokens rotated on use, and the
// `amr` of each session in auth.mfa_amr_claims.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { transaction, type Db, type Queryable } from './db.ts';
import { badRequest } from './errors.ts';
import { clientIp, userAgent } from './http.ts';
import type { AuthSettings } from './settings.ts';
import { newRefreshToken, signAccessToken, type AmrEntry } from './tokens.ts';
import { findUserById, isBanned, loadUserJson, tokenSubject, type UserRow } from './users.ts';

/** How a session was started, as GoTrue names it in `amr`. */
export type AuthMethod = 'password' | 'otp' | 'magiclink' | 'recovery' | 'email/signup' | 'email_change' | 'invite';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  parent: string | null;
  session_id: string | null;
  updated_at: Date;
}

const zeroInstance = '00000000-0000-0000-0000-000000000000';

async function insertRefreshToken(
  db: Queryable,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = newRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, parent, session_id, created_at, updated_at)
     values ($1, $2, $3, false, $4, $5, now(), now())`,
    [zeroInstance, token, userId, parent, sessionId],
  );
  return token;
}

async function sessionAmr(db: Queryable, sessionId: string): Promise<AmrEntry[]> {
  const result = await db.query<{ method: string; timestamp: string }>(
    `select authentication_method as method, floor(extract(epoch from updated_at))::bigint as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  return result.rows.map((row) => ({ method: row.method, timestamp: Number(row.timestamp) }));
}

async function sessionResponse(
  db: Queryable,
  settings: AuthSettings,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<SessionResponse> {
  const { token, expiresAt } = await signAccessToken(
    settings,
    tokenSubject(user),
    sessionId,
    await sessionAmr(db, sessionId),
  );
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await loadUserJson(db, user),
  };
}

/** Starts a session for `user` (inside the caller's transaction) and answers it. */
export async function startSession(
  db: Queryable,
  settings: AuthSettings,
  user: UserRow,
  method: AuthMethod,
  req: IncomingMessage,
): Promise<SessionResponse> {
  const sessionId = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, user.id, userAgent(req), clientIp(req)],
  );
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  );
  const refreshToken = await insertRefreshToken(db, user.id, sessionId, null);
  const signedIn = await db.query<UserRow>(
    'update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning *',
    [user.id],
  );
  await db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [
    user.id,
  ]);
  return sessionResponse(db, settings, signedIn.rows[0], sessionId, refreshToken);
}

const notFound = () => badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/**
 * The refresh_token grant: the token is revoked and a child issued. A revoked token used
 * again within refresh_token_reuse_interval gets the session's current token back; later
 * reuse is treated as theft and ends the session.
 */
export async function refreshSession(
  pool: Db,
  settings: AuthSettings,
  token: string,
  req: IncomingMessage,
): Promise<SessionResponse> {
  const outcome = await transaction(pool, async (db) => {
    const found = await db.query<RefreshTokenRow>('select * from auth.refresh_tokens where token = $1 for update', [
      token,
    ]);
    const row = found.rows[0];
    if (!row || !row.session_id) return { error: notFound() };
    const session = await db.query<{ id: string; not_after: Date | null }>(
      'select id, not_after from auth.sessions where id = $1 for update',
      [row.session_id],
    );
    if (!session.rows[0]) return { error: notFound() };
    const user = await findUserById(db, row.user_id);
    if (!user) return { error: notFound() };
    if (isBanned(user)) return { error: badRequest('user_banned', 'User is banned') };
    const notAfter = session.rows[0].not_after;
    if (notAfter && notAfter < new Date())
      return { error: badRequest('session_expired', 'Invalid Refresh Token: Session Expired') };

    let issued: string;
    if (row.revoked) {
      const active = await db.query<RefreshTokenRow>(
        'select * from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1',
        [row.session_id],
      );
      const reuseUntil = row.updated_at.getTime() + settings.refreshTokenReuseInterval * 1000;
      if (!active.rows[0] || Date.now() > reuseUntil) {
        await db.query('delete from auth.sessions where id = $1', [row.session_id]);
        return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
      }
      issued = active.rows[0].token;
    } else {
      await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [row.id]);
      issued = await insertRefreshToken(db, user.id, row.session_id, row.token);
    }
    await db.query(
      'update auth.sessions set refreshed_at = now(), updated_at = now(), user_agent = $2, ip = $3 where id = $1',
      [row.session_id, userAgent(req), clientIp(req)],
    );
    return { session: await sessionResponse(db, settings, user, row.session_id, issued) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.session;
}

export type LogoutScope = 'global' | 'local' | 'others';

export async function endSessions(
  db: Queryable,
  userId: string,
  sessionId: string | null,
  scope: LogoutScope,
): Promise<void> {
  if (scope === 'global') await db.query('delete from auth.sessions where user_id = $1', [userId]);
  else if (scope === 'local') {
    if (sessionId) await db.query('delete from auth.sessions where id = $1 and user_id = $2', [sessionId, userId]);
  } else await db.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [userId, sessionId]);
}

export async function sessionExists(db: Queryable, sessionId: string): Promise<boolean> {
  const result = await db.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return (result.rowCount ?? 0) > 0;
}
