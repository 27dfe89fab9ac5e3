// Who is calling: the bearer JWT checked as GoTrue checks it for user and admin routes.
import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context.ts';
import { AuthError, forbidden } from './errors.ts';
import { bearerToken } from './http.ts';
import { sessionExists } from './sessions.ts';
import { verifyJwt, type AccessTokenClaims } from './tokens.ts';
import { findUserById, type UserRow } from './users.ts';
import { isUuid } from './validate.ts';

const adminRoles = new Set(['service_role', 'supabase_admin']);

async function requireClaims(ctx: AuthContext, req: IncomingMessage): Promise<AccessTokenClaims> {
  const token = bearerToken(req);
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return verifyJwt(ctx.settings, token);
}

interface Caller {
  claims: AccessTokenClaims;
  user: UserRow;
  sessionId: string | null;
}

/** A signed-in user whose session still exists. */
export async function requireUser(ctx: AuthContext, req: IncomingMessage): Promise<Caller> {
  const claims = await requireClaims(ctx, req);
  if (!claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw forbidden('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = typeof claims.session_id === 'string' && claims.session_id ? claims.session_id : null;
  if (sessionId) {
    if (!isUuid(sessionId)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    if (!(await sessionExists(ctx.db, sessionId)))
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { claims, user, sessionId };
}

export function isAdminClaims(claims: AccessTokenClaims): boolean {
  return typeof claims.role === 'string' && adminRoles.has(claims.role);
}

/** A service_role (or supabase_admin) JWT. */
export async function requireAdmin(ctx: AuthContext, req: IncomingMessage): Promise<AccessTokenClaims> {
  const claims = await requireClaims(ctx, req);
  if (!isAdminClaims(claims)) throw forbidden('not_admin', 'User not allowed');
  return claims;
}
