// The browser's Supabase client (anon key only: no secret ever reaches the browser).
// The session persists in local storage and is mirrored into a cookie, because the spec's
// client sends cookies with every request to /api.
import type { Database } from '@db-types';
import { createClient } from '@supabase/supabase-js';

const url = import.meta.env.VITE_SUPABASE_URL as string;
const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string;

export const supabase = createClient<Database>(url, anonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
});

export const ACCESS_COOKIE = 'sb-access-token';

function writeAccessCookie(token: string | null, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = token
    ? `${ACCESS_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`
    : `${ACCESS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
}

supabase.auth.onAuthStateChange((_event, session) => {
  writeAccessCookie(session?.access_token ?? null, session?.expires_in ?? 0);
});

export async function currentAccessToken(): Promise<string | null> {
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}
