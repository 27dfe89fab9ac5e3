// A direct Postgres connection for the functions (SUPABASE_DB_URL, set on hosted Supabase and by
// the local stack): what lives in the unexposed `private` schema (OAuth tokens and states,
// Stripe events, checkout recoveries, and the service-only functions over them) is out of
// PostgREST's reach by design, so the functions query it here.
import postgres from 'postgres';
import { settings } from './config.ts';

let client: postgres.Sql | null = null;

export function db(): postgres.Sql {
  client ??= postgres(settings().dbUrl, {
    max: 4,
    // Works behind Supabase's transaction pooler too.
    prepare: false,
    idle_timeout: 30,
    connection: { application_name: 'castloop-functions' },
  });
  return client;
}
