// The two clients every function uses: one acting as the caller (RLS applies) and the service-role
// client, used only where a secret or an admin action is needed.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { settings } from './config.ts';
import type { Database } from './database.types.ts';

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

/**
 * A client with no user: for sign-in, sign-up and recovery calls to Auth. `clientAddress` is the
 * caller's address, passed on as `X-Forwarded-For` so Auth's rate limits count that caller and
 * not this function (the gateway trusts the header only from the functions host).
 */
export function publicClient(clientAddress?: string | null): SupabaseClient<Database> {
  const headers: Record<string, string> = clientAddress ? { 'X-Forwarded-For': clientAddress } : {};
  return createClient<Database>(settings().supabaseUrl, settings().anonKey, { auth: noSession, global: { headers } });
}

let verifier: SupabaseClient<Database> | undefined;

/**
 * The one client that checks access tokens (auth.getClaims): supabase-js keeps Auth's JWKS for
 * ten minutes, so ES256 sessions are verified here without a request to Auth.
 */
export function sessionVerifier(): SupabaseClient<Database> {
  verifier ??= createClient<Database>(settings().supabaseUrl, settings().anonKey, { auth: noSession });
  return verifier;
}

/** Clients by access token: building one (Auth, Realtime and Storage clients inside) costs more than the request it sends. */
const userClients = new Map<string, SupabaseClient<Database>>();
const USER_CLIENTS_MAX = 1000;

/** A client that acts as the user whose access token this is: RLS applies. */
export function userClient(accessToken: string): SupabaseClient<Database> {
  let client = userClients.get(accessToken);
  if (!client) {
    client = createClient<Database>(settings().supabaseUrl, settings().anonKey, {
      auth: noSession,
      global: { headers: { Authorization: `Bearer ${accessToken}` } },
    });
    // The oldest goes first; a token past its expiry is refused before its client is used.
    if (userClients.size >= USER_CLIENTS_MAX) userClients.delete(userClients.keys().next().value!);
    userClients.set(accessToken, client);
  }
  return client;
}

export function serviceClient(): SupabaseClient<Database> {
  return createClient<Database>(settings().supabaseUrl, settings().serviceRoleKey, { auth: noSession });
}
