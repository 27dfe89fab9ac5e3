// The caller's session on /api: a Bearer token (the SPA's supabase-js session), or, for the
// spec's cookie clients, the HttpOnly cookie /api/auth/login sets. Only the server writes that
// cookie. Cross-site rules for both live here too, applied to every /api route by app.ts.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { settings } from './config.ts';
import { accountSchema, type Account } from './domain/account.ts';
import { databaseError, type DatabaseError } from './database-errors.ts';
import { db } from './db.ts';
import { HttpError } from './http-error.ts';
import { sessionVerifier, userClient } from './supabase-clients.ts';

const ACCESS_COOKIE = 'sb-access-token';
const REFRESH_COOKIE = 'sb-refresh-token';

/** The site's own origins: SITE_URL and the comma-separated ALLOWED_ORIGIN. */
export function allowedOrigins(): Set<string> {
  return settings().allowedOrigins;
}

function bearerOf(c: Context): string | null {
  const bearer = c.req.header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  // The anon key is not a session: the gateway adds it when a request carries only an apikey.
  return bearer && bearer !== settings().anonKey ? bearer : null;
}

export function accessTokenOf(c: Context): string | null {
  return bearerOf(c) ?? getCookie(c, ACCESS_COOKIE) ?? null;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser may have sent on another site's behalf: one
 * from a foreign Origin, and one carried by the session cookie without any Origin. Requests
 * with a Bearer token and no Origin (scripts, servers) pass: a foreign page cannot add one.
 */
export function refuseCrossSiteWrites(origins: Set<string>): MiddlewareHandler {
  return async (c, next) => {
    if (safeMethods.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins.has(origin)) throw new HttpError(403, 'Cross-site request refused');
    if (origin === undefined && !bearerOf(c) && getCookie(c, ACCESS_COOKIE) !== undefined)
      throw new HttpError(403, 'Cross-site request refused: the session cookie needs an Origin header');
    return next();
  };
}

/** The caller's address as the gateway (or the platform) passed it in `X-Forwarded-For`. */
export function callerAddress(c: Context): string | null {
  const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  return first && /^[0-9A-Fa-f:.]{2,45}$/.test(first) ? first : null;
}

export interface Caller {
  userId: string;
  email: string;
  accessToken: string;
  /** The verified token's claims, as PostgREST hands them to the database. */
  claims: Record<string, unknown>;
}

/** The `role` claim of a JWT (unverified: only used to refuse). */
function roleOf(token: string): unknown {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return (JSON.parse(atob(payload)) as { role?: unknown }).role;
  } catch {
    return undefined;
  }
}

/**
 * Tokens already verified, until they expire but no longer than supabase-js keeps the JWKS they
 * were checked against: a session's every request would otherwise import Auth's key and check
 * the same signature again. Bounded: the oldest entry goes first.
 */
const verified = new Map<string, { caller: Omit<Caller, 'accessToken'>; until: number }>();
const VERIFIED_FOR_MS = 10 * 60 * 1000;
const VERIFIED_MAX = 10_000;

/**
 * The signed-in caller, from an access token verified as supabase-js `getClaims()` does: ES256
 * against Auth's cached JWKS without a request to Auth, HS256 (legacy secret) by asking Auth.
 * 401 when there is none, it is forged or expired. A signed-out session's token stays valid until
 * it expires, as on hosted Supabase; `loadAccount` (current_account) refuses it.
 */
export async function requireCaller(c: Context): Promise<Caller> {
  const token = accessTokenOf(c);
  // A signed-in user's session has the authenticated role; any other token is not a user session.
  if (!token || roleOf(token) !== 'authenticated') throw new HttpError(401, 'Unauthorized');
  const now = Date.now();
  const known = verified.get(token);
  if (known && known.until > now) return { ...known.caller, accessToken: token };
  verified.delete(token);
  const { data, error } = await sessionVerifier().auth.getClaims(token);
  const claims = data?.claims;
  if (error || !claims || claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw new HttpError(401, 'Unauthorized');
  const caller = { userId: claims.sub, email: typeof claims.email === 'string' ? claims.email : '', claims: claims as Record<string, unknown> };
  // Only tokens checked against a public key are kept: an HS256 one was checked by asking Auth,
  // which also refuses a session that has signed out.
  if (data.header.alg !== 'HS256' && typeof claims.exp === 'number') {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { caller, until: Math.min(claims.exp * 1000, now + VERIFIED_FOR_MS) });
  }
  return { ...caller, accessToken: token };
}

/** A string literal Postgres reads back as `text`, whatever standard_conforming_strings says. */
function sqlLiteral(text: string): string {
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Runs one read-only `select ... as result` as the caller, the way PostgREST runs a request: role
 * `authenticated` and the verified claims, local to one transaction, so RLS and auth.uid() apply
 * as through the API. One round trip to Postgres (the statements go as one simple query, which
 * Postgres runs as one transaction), instead of a request to the gateway and PostgREST. `select`
 * is the route's own fixed text: nothing from the request goes into it.
 */
export async function readAsCaller(caller: Caller, select: string): Promise<unknown> {
  try {
    const results = await db()
      .unsafe(
        `set local role authenticated;
         select set_config('request.jwt.claims', ${sqlLiteral(JSON.stringify(caller.claims))}, true);
         ${select}`,
      )
      .simple();
    return (results as unknown as { result: unknown }[][])[2][0]?.result ?? null;
  } catch (error) {
    // A failure without a SQLSTATE is the server's.
    throw databaseError(error as DatabaseError, "Could not read the caller's data");
  }
}

function parseAccount(data: unknown): Account {
  if (!data) throw new HttpError(401, 'Unauthorized');
  const account = accountSchema.safeParse(data);
  if (!account.success) throw new HttpError(500, `current_account() returned an unexpected shape: ${account.error.message}`);
  return account.data;
}

/** The account of a token Auth has just issued (sign-in, sign-up, recovery). */
export async function loadAccount(accessToken: string): Promise<Account> {
  const { data, error } = await userClient(accessToken).rpc('current_account');
  if (error) throw databaseError(error, 'Could not load the account');
  return parseAccount(data);
}

/** The signed-in caller's account (current_account, which also refuses a signed-out session). */
export async function loadCallerAccount(caller: Caller): Promise<Account> {
  return parseAccount(await readAsCaller(caller, 'select public.current_account() as result'));
}

/** HttpOnly, SameSite=Lax, and Secure when the site is https (settings.ts decides). */
export function setSessionCookies(c: Context, session: { access_token: string; refresh_token: string; expires_in: number }): void {
  const options = { path: '/', httpOnly: true, sameSite: 'Lax' as const, secure: settings().secureCookies };
  setCookie(c, ACCESS_COOKIE, session.access_token, { ...options, maxAge: session.expires_in });
  setCookie(c, REFRESH_COOKIE, session.refresh_token, { ...options, maxAge: 60 * 60 * 24 * 30 });
}

export function clearSessionCookies(c: Context): void {
  deleteCookie(c, ACCESS_COOKIE, { path: '/' });
  deleteCookie(c, REFRESH_COOKIE, { path: '/' });
}
