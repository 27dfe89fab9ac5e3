// The browser's Supabase client (anon key only: no secret ever reaches the browser).
// Only Auth and PostgREST, built from their own packages: the full supabase-js would also ship
// Realtime, Storage and Functions on the first load (the /login JS budget).
// The session persists in local storage and is mirrored into a cookie, because the spec's
// client sends cookies with every request to /api.
import type { Database } from '@db-types';
import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';

// With a trailing slash, so the service paths resolve below it as supabase-js resolves them.
const url = new URL(`${(import.meta.env.VITE_SUPABASE_URL as string).replace(/\/+$/, '')}/`);
const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string;

const auth = new AuthClient({
  url: new URL('auth/v1', url).href,
  headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
  // supabase-js's default key, so sessions stored before this client keep working.
  storageKey: `sb-${url.hostname.split('.')[0]}-auth-token`,
  persistSession: true,
  autoRefreshToken: true,
  detectSessionInUrl: false,
});

export async function currentAccessToken(): Promise<string | null> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? null;
}

// As supabase-js does: the anon key identifies the project, the user's token (if any) carries RLS.
const rest = new PostgrestClient<Database>(new URL('rest/v1', url).href, {
  fetch: async (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has('apikey')) headers.set('apikey', anonKey);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${(await currentAccessToken()) ?? anonKey}`);
    return fetch(input, { ...init, headers });
  },
});

export const supabase = { auth, from: rest.from.bind(rest) };

export const ACCESS_COOKIE = 'sb-access-token';

function writeAccessCookie(token: string | null, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = token
    ? `${ACCESS_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`
    : `${ACCESS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
}

auth.onAuthStateChange((_event, session) => {
  writeAccessCookie(session?.access_token ?? null, session?.expires_in ?? 0);
});
