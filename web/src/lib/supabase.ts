// The browser's Supabase client (anon key only: no secret ever reaches the browser).
// Only Auth and PostgREST, built from their own packages: the full supabase-js would also ship
// Realtime, Storage and Functions on the first load (the /login JS budget). PostgREST is loaded
// on first use: no screen of the first load reads a table.
// This client holds the SPA's session (local storage); `/api` calls carry it as a Bearer token
// (api-client.ts). Browser code never writes a session cookie: only the server sets one, HttpOnly.
import type { Database } from '@db-types';
import { AuthClient } from '@supabase/auth-js';
import type { PostgrestClient } from '@supabase/postgrest-js';

// With a trailing slash, so the service paths resolve below it as supabase-js resolves them.
const url = new URL(`${(import.meta.env.VITE_SUPABASE_URL as string).replace(/\/+$/, '')}/`);
export const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string;
/** Supabase Storage's base URL (resumable uploads and object calls go straight to it). */
export const storageUrl = new URL('storage/v1', url).href;

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

export const supabase = { auth };
