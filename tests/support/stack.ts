// What tests need to reach the test stack: its config, Supabase clients and database access.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import WebSocket from 'ws';
import { loadConfig } from '../../local/config.ts';

export const config = loadConfig('test');

// Node 20 has no global WebSocket, which supabase-js's realtime client needs at construction.
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
};

export function anonClient(): SupabaseClient {
  return createClient(config.urls.api, config.anonKey, clientOptions);
}

export function serviceClient(): SupabaseClient {
  return createClient(config.urls.api, config.serviceRoleKey, clientOptions);
}

/** Runs `work` with a connection as `postgres` (not a superuser, as on hosted Supabase). */
export async function withDb<T>(work: (client: pg.Client) => Promise<T>, url = config.urls.db): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let counter = 0;
/** A unique e-mail address per call, so tests never collide. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}
