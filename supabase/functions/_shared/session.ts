// The caller's session: a Bearer token, or the session cookie the SPA and /api/auth/login set
// (the spec's client sends cookies with every request).
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Account } from './domain/account.ts';
import { HttpError } from './http-error.ts';
import { publicClient, userClient } from './supabase-clients.ts';

export const ACCESS_COOKIE = 'sb-access-token';
export const REFRESH_COOKIE = 'sb-refresh-token';

export function accessTokenOf(c: Context): string | null {
  const header = c.req.header('authorization');
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1];
  // The anon key is not a session: the gateway adds it when a request carries only an apikey.
  if (bearer && bearer !== Deno.env.get('SUPABASE_ANON_KEY')) return bearer;
  return getCookie(c, ACCESS_COOKIE) ?? null;
}

export interface Caller {
  userId: string;
  email: string;
  accessToken: string;
}

/** The signed-in caller, checked with Auth; 401 when there is none or the session ended. */
export async function requireCaller(c: Context): Promise<Caller> {
  const token = accessTokenOf(c);
  if (!token) throw new HttpError(401, 'Unauthorized');
  const { data, error } = await publicClient().auth.getUser(token);
  if (error || !data.user) throw new HttpError(401, 'Unauthorized');
  return { userId: data.user.id, email: data.user.email ?? '', accessToken: token };
}

export async function loadAccount(accessToken: string): Promise<Account> {
  const { data, error } = await userClient(accessToken).rpc('current_account');
  if (error) throw new HttpError(500, `Could not load the account: ${error.message}`);
  if (!data) throw new HttpError(401, 'Unauthorized');
  // current_account() builds exactly the Account shape (see its migration).
  return data as unknown as Account;
}

export function setSessionCookies(c: Context, session: { access_token: string; refresh_token: string; expires_in: number }): void {
  const secure = new URL(c.req.url).protocol === 'https:' || Deno.env.get('SITE_URL')?.startsWith('https:') === true;
  const options = { path: '/', httpOnly: true, sameSite: 'Lax' as const, secure };
  setCookie(c, ACCESS_COOKIE, session.access_token, { ...options, maxAge: session.expires_in });
  setCookie(c, REFRESH_COOKIE, session.refresh_token, { ...options, maxAge: 60 * 60 * 24 * 30 });
}

export function clearSessionCookies(c: Context): void {
  deleteCookie(c, ACCESS_COOKIE, { path: '/' });
  deleteCookie(c, REFRESH_COOKIE, { path: '/' });
}
