// pg-boss creates its schema's functions (job_now, job_table_format, create_queue, ...) without a
// search_path, which Supabase's database linter reports (function_search_path_mutable, WARN).
// The schema is pg-boss's: it is created and migrated by the worker at start, and a pg-boss
// upgrade may create or replace functions (dropping any setting made on the old ones), so a
// migration cannot fix it once. Instead the worker pins search_path to '' on every function of
// the schema that lacks it, right after pg-boss has installed or migrated it, on every start.
// pg-boss names every object with its schema, so '' changes no lookup (checked by the worker's
// stack tests running jobs through these functions).
import type pg from 'pg';

/** The schema pg-boss installs into (its default, named so the pinning and the queue agree). */
export const QUEUE_SCHEMA = 'pgboss';

/** Pins search_path = '' on each function of `schema` the connecting role owns; answers how many it changed. */
export async function pinQueueSearchPath(db: pg.Pool, schema = QUEUE_SCHEMA): Promise<number> {
  const { rows } = await db.query<{ signature: string }>(
    `select pg_catalog.format('%I.%I(%s)', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)) as signature
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1
        and p.proowner = (select r.oid from pg_catalog.pg_roles r where r.rolname = current_user)
        and not coalesce(p.proconfig, '{}') && array['search_path=""']`,
    [schema],
  );
  // The signature comes from the catalog, schema-qualified and quoted.
  for (const { signature } of rows) await db.query(`alter function ${signature} set search_path = ''`);
  return rows.length;
}
