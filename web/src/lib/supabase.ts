// The browser's Supabase client (anon key only: no secret ever reaches the browser).
// Only Auth and PostgREST, built from their own packages: the full supabase-js would also ship
// Realtime, Storage and Functions on the first load (the /login JS budget). Both load on first
// use: no screen of the first load reads a table, and a visitor without a stored session needs
// no Auth client to be shown a page.
// This client holds the SPA's session (local storage); `/api` calls carry it as a Bearer token
// (api-client.ts). Browser code never writes a session cookie: only the server sets one, HttpOnly.
import type { Database } from '@db-types';
import type { GoTrueClient } from '@supabase/auth-js';
import type { PostgrestClient } from '@supabase/postgrest-js';

// With a trailing slash, so the service paths resolve below it as supabase-js resolves them.
const url = new URL(`${(import.meta.env.VITE_SUPABASE_URL as string).replace(/\/+$/, '')}/`);
export const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string;
/** Supabase Storage's base URL (resumable uploads and object calls go straight to it). */
export const storageUrl = new URL('storage/v1', url).href;

// supabase-js's default key, so sessions stored before this client keep working.
const sessionStorageKey = `sb-${url.hostname.split('.')[0]}-auth-token`;

let auth: Promise<GoTrueClient> | undefined;
// Set once the client exists: from then on it alone says which session is current.
let authReady = false;

/** The Auth client (sign-in, sign-out, the session), loaded on first use. */
export function authClient(): Promise<GoTrueClient> {
  auth ??= import('@supabase/auth-js').then(
    ({ AuthClient }) => {
      authReady = true;
      return new AuthClient({
        url: new URL('auth/v1', url).href,
        headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
        storageKey: sessionStorageKey,
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: false,
      });
    },
    (error: unknown) => {
      // A failed download is tried again on the next call.
      auth = undefined;
      throw error;
    },
  );
  return auth;
}

/**
 * How long after the page's load event the Auth client loads while the stored token still
 * serves (more than REFRESH_MARGIN_MS left): the first screen's data requests and rendering
 * follow the load event, and the client's 19 KB would compete with them.
 */
export const AUTH_CLIENT_AFTER_LOAD_MS = 3000;

/**
 * Starts loading the Auth client (which keeps the session refreshed) when a session is stored:
 * at once if the first requests need it to refresh the token, else a moment after the page has
 * loaded, so it does not compete with the first screen's downloads. A request that finds the
 * token due for a refresh before then loads it itself (currentAccessToken).
 */
export function preloadAuthClient(): void {
  if (!hasStoredSession()) return;
  const load = () =>
    authClient().catch(() => {
      // The first request that needs it loads it again and reports the failure.
    });
  if (!storedUnexpiredToken()) {
    void load();
    return;
  }
  window.addEventListener('load', () => setTimeout(() => void load(), AUTH_CLIENT_AFTER_LOAD_MS), { once: true });
}

export async function currentAccessToken(): Promise<string | null> {
  if (!authReady) {
    // No session stored and no client holding one: there is nothing to read or refresh.
    if (!auth && !hasStoredSession()) return null;
    // The first requests need not wait for the client's download: a stored token the client
    // would hand out as it is (not due for a refresh) is read directly.
    const token = storedUnexpiredToken();
    if (token) return token;
  }
  const { data } = await (await authClient()).getSession();
  return data.session?.access_token ?? null;
}

// The Auth client refreshes a token with less than this left (auth-js EXPIRY_MARGIN_MS).
const REFRESH_MARGIN_MS = 90 * 1000;

function storedUnexpiredToken(): string | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(sessionStorageKey) ?? 'null') as { access_token?: unknown; expires_at?: unknown } | null;
    const { access_token: token, expires_at: expiresAt } = stored ?? {};
    return typeof token === 'string' && typeof expiresAt === 'number' && expiresAt * 1000 - Date.now() > REFRESH_MARGIN_MS ? token : null;
  } catch {
    // Unreadable storage or an unparsable entry: the client decides, as it would have.
    return null;
  }
}

/** Whether a session is stored (the visitor may be signed in), read without loading the Auth client. */
export function hasStoredSession(): boolean {
  try {
    return window.localStorage.getItem(sessionStorageKey) !== null;
  } catch {
    // Storage the browser refuses to open: let the Auth client decide, as it would have.
    return true;
  }
}

let rest: Promise<PostgrestClient<Database>> | undefined;

/** The PostgREST client. As supabase-js does: the anon key identifies the project, the user's token (if any) carries RLS. */
export function database(): Promise<PostgrestClient<Database>> {
  rest ??= import('@supabase/postgrest-js').then(
    ({ PostgrestClient }) =>
      new PostgrestClient<Database>(new URL('rest/v1', url).href, {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          if (!headers.has('apikey')) headers.set('apikey', anonKey);
          if (!headers.has('Authorization'))
            headers.set('Authorization', `Bearer ${(await currentAccessToken()) ?? anonKey}`);
          return fetch(input, { ...init, headers });
        },
      }),
  );
  return rest;
}

/** Removes an object from Storage as the signed-in user (Storage's RLS decides). */
export async function removeStorageObject(bucket: string, objectPath: string): Promise<void> {
  const token = await currentAccessToken();
  const res = await fetch(`${storageUrl}/object/${bucket}/${objectPath}`, {
    method: 'DELETE',
    headers: { apikey: anonKey, Authorization: `Bearer ${token ?? anonKey}` },
  });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
}
