// The database linter's security and performance checks (the ones Supabase's splinter reports
// at WARN/ERROR that apply here), re-expressed as catalog queries over the migrated database.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pinQueueSearchPath } from '../../worker/runtime/queue-search-path.ts';
import { config } from '../support/stack.ts';
import { withDb } from './db-support.ts';

const exposed = `('public')`;
const ours = `('public', 'private')`;

async function rows(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return withDb(async (db) => (await db.query(sql, params)).rows);
}

describe('database lint', () => {
  it('rls_disabled_in_public: every table in an exposed schema has RLS on', async () => {
    expect(
      await rows(`
        select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('r', 'p') and n.nspname in ${exposed} and not c.relrowsecurity`),
    ).toEqual([]);
  });

  it('auth_rls_initplan: auth.* and current_setting() in policies are wrapped in a select', async () => {
    const policies = await rows(`
      select schemaname, tablename, policyname, coalesce(qual, '') as qual, coalesce(with_check, '') as with_check
        from pg_catalog.pg_policies where schemaname in ('public', 'storage')`);
    const offenders = policies.filter((p) =>
      ['auth.uid()', 'auth.jwt()', 'auth.role()', 'auth.email()', 'private.is_admin()', 'current_setting('].some(
        (call) =>
          [p.qual as string, p.with_check as string].some(
            (expr) => expr.includes(call) && !expr.toLowerCase().includes(`select ${call}`),
          ),
      ),
    );
    expect(offenders).toEqual([]);
  });

  // Over the whole database as splinter checks it (its list of platform-managed schemas, and
  // functions not owned by an extension), so pg-boss's schema, which the worker installs when it
  // starts (the test stack has started it), is covered too.
  it("function_search_path_mutable: every function in the database pins search_path to empty, pg-boss's included", async () => {
    const platformSchemas = [
      '_timescaledb_cache',
      '_timescaledb_catalog',
      '_timescaledb_config',
      '_timescaledb_internal',
      'auth',
      'cron',
      'extensions',
      'graphql',
      'graphql_public',
      'information_schema',
      'net',
      'pgroonga',
      'pgsodium',
      'pgsodium_masks',
      'pgtle',
      'pgbouncer',
      'pg_catalog',
      'realtime',
      'repack',
      'storage',
      'supabase_functions',
      'supabase_migrations',
      'tiger',
      'topology',
      'vault',
    ];
    const functions = `
      from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where n.nspname <> all ($1) and n.nspname not like 'pg\\_%'
       and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')`;
    expect(
      await rows(
        `select n.nspname, p.proname ${functions} and not coalesce(p.proconfig, '{}') && array['search_path=""']`,
        [platformSchemas],
      ),
    ).toEqual([]);
    const [{ queue }] = await rows(`select count(*)::int as queue ${functions} and n.nspname = 'pgboss'`, [
      platformSchemas,
    ]);
    expect(queue).toBeGreaterThan(0);
  });

  it('a queue function that a pg-boss upgrade re-creates without search_path is pinned again at the next worker start', async () => {
    const settings = async () =>
      (await rows(`select proconfig from pg_catalog.pg_proc where oid = 'pgboss.job_now()'::regprocedure`))[0]
        .proconfig;
    // What an upgrade (or pg-boss's own CREATE OR REPLACE) leaves: the same function, no setting.
    await withDb((db) =>
      db.query(
        `create or replace function pgboss.job_now() returns timestamptz as $$ select pg_catalog.now(); $$ language sql stable`,
      ),
    );
    expect(await settings()).toBeNull();
    const pool = new pg.Pool({ connectionString: config.urls.db, max: 1 });
    try {
      expect(await pinQueueSearchPath(pool)).toBe(1);
    } finally {
      await pool.end();
    }
    expect(await settings()).toEqual(['search_path=""']);
  });

  it('security_definer_view and auth_users_exposed: no view bypasses RLS', async () => {
    expect(
      await rows(`
        select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('v', 'm') and n.nspname in ${exposed}
           and (c.relkind = 'm' or not coalesce(c.reloptions, '{}') && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1'])`),
    ).toEqual([]);
  });

  it('unindexed_foreign_keys: every foreign key has an index that starts with its columns', async () => {
    expect(
      await rows(`
        select c.conrelid::regclass::text as table_name, c.conname
          from pg_catalog.pg_constraint c join pg_catalog.pg_namespace n on n.oid = c.connamespace
         where c.contype = 'f' and n.nspname in ${ours}
           and not exists (
             select 1 from pg_catalog.pg_index i
              where i.indrelid = c.conrelid
                and (string_to_array(i.indkey::text, ' ')::smallint[])[1:cardinality(c.conkey)] = c.conkey)`),
    ).toEqual([]);
  });

  it('every column a policy reads is the leading column of an index', async () => {
    expect(
      await rows(`
        select distinct d.refobjid::regclass::text as table_name, a.attname
          from pg_catalog.pg_depend d
          join pg_catalog.pg_policy pol on pol.oid = d.objid and d.classid = 'pg_catalog.pg_policy'::regclass
          join pg_catalog.pg_class c on c.oid = d.refobjid
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          join pg_catalog.pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
         where d.refobjsubid > 0 and n.nspname in ${exposed}
           and not exists (
             select 1 from pg_catalog.pg_index i where i.indrelid = d.refobjid and i.indkey[0] = d.refobjsubid)`),
    ).toEqual([]);
  });

  it('multiple_permissive_policies: at most one permissive policy per table, role and action', async () => {
    expect(
      await rows(`
        select c.relname, r.rolname, cmd.action, array_agg(p.polname) as policies
          from pg_catalog.pg_policy p
          join pg_catalog.pg_class c on c.oid = p.polrelid
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          join pg_catalog.pg_roles r on p.polroles @> array[r.oid] or p.polroles = array[0::oid]
          cross join lateral unnest(case p.polcmd when 'r' then array['select'] when 'a' then array['insert']
                                                  when 'w' then array['update'] when 'd' then array['delete']
                                                  else array['select', 'insert', 'update', 'delete'] end) as cmd(action)
         where p.polpermissive and n.nspname in ${exposed} and not r.rolbypassrls and r.rolname not like 'pg\\_%'
         group by c.relname, r.rolname, cmd.action
        having count(*) > 1`),
    ).toEqual([]);
  });

  it('duplicate_index: no two identical indexes', async () => {
    expect(
      await rows(`
        select tablename, array_agg(indexname) from pg_catalog.pg_indexes
         where schemaname in ${ours}
         group by schemaname, tablename, replace(indexdef, indexname, '')
        having count(*) > 1`),
    ).toEqual([]);
  });

  it('anon/authenticated_security_definer_function_executable: no security definer function in an exposed schema', async () => {
    expect(
      await rows(`
        select p.proname from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         where p.prosecdef and n.nspname in ${exposed}
           and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))`),
    ).toEqual([]);
  });

  it('rls_policy_always_true: no write policy for anon/authenticated is unconditional', async () => {
    expect(
      await rows(`
        select tablename, policyname from pg_catalog.pg_policies
         where schemaname in ('public', 'storage') and permissive = 'PERMISSIVE'
           and (roles && array['public', 'anon', 'authenticated']::name[])
           and (
             (cmd in ('UPDATE', 'DELETE', 'ALL') and (qual is null or replace(qual, ' ', '') in ('true', '(true)')))
             or (cmd = 'INSERT' and (with_check is null or replace(with_check, ' ', '') in ('true', '(true)')))
           )`),
    ).toEqual([]);
  });

  it('rls_references_user_metadata: no policy trusts user-editable metadata', async () => {
    expect(
      await rows(`select tablename, policyname from pg_catalog.pg_policies
                   where schemaname in ('public', 'storage') and (coalesce(qual, '') || coalesce(with_check, '')) like '%user_metadata%'`),
    ).toEqual([]);
  });

  it('every policy names its roles (none apply to PUBLIC)', async () => {
    expect(
      await rows(
        `select tablename, policyname from pg_catalog.pg_policies where schemaname in ('public', 'storage') and roles = array['public']::name[]`,
      ),
    ).toEqual([]);
  });

  it('anon executes no function of ours, and nobody but authenticated/service_role reaches private', async () => {
    expect(
      await rows(`
        select n.nspname, p.proname from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         where n.nspname in ${ours} and has_function_privilege('anon', p.oid, 'execute')
           and p.prorettype <> 'pg_catalog.trigger'::regtype`),
    ).toEqual([]);
    expect(await rows(`select has_schema_privilege('anon', 'private', 'usage') as anon_usage`)).toEqual([
      { anon_usage: false },
    ]);
  });

  it('the service-role-only tables grant nothing to anon or authenticated', async () => {
    expect(
      await rows(`
        select table_name, grantee, privilege_type from information_schema.role_table_grants
         where table_schema in ('public', 'private')
           and table_name in ('oauth_tokens', 'oauth_states', 'stripe_events', 'checkout_recoveries', 'second_subscriptions')
           and grantee in ('anon', 'authenticated', 'PUBLIC')`),
    ).toEqual([]);
    expect(
      await rows(`
        select table_name, column_name from information_schema.column_privileges
         where table_schema in ('public', 'private')
           and table_name in ('oauth_tokens', 'oauth_states', 'stripe_events', 'checkout_recoveries', 'second_subscriptions')
           and grantee in ('anon', 'authenticated', 'PUBLIC')`),
    ).toEqual([]);
  });

  it('OAuth token material, OAuth states and billing records are outside the schema the API exposes', async () => {
    expect(
      await rows(`select table_schema, table_name from information_schema.tables
                   where table_name in ('oauth_tokens', 'oauth_states', 'stripe_events', 'checkout_recoveries', 'second_subscriptions') order by 2`),
    ).toEqual([
      { table_schema: 'private', table_name: 'checkout_recoveries' },
      { table_schema: 'private', table_name: 'oauth_states' },
      { table_schema: 'private', table_name: 'oauth_tokens' },
      { table_schema: 'private', table_name: 'second_subscriptions' },
      { table_schema: 'private', table_name: 'stripe_events' },
    ]);
  });

  it('the service-only billing and outbox functions live in private and only the service role runs them', async () => {
    const serviceOnly = [
      'claim_checkout_recovery',
      'claim_webhook_deliveries',
      'note_second_subscription',
      'record_stripe_event',
      'record_webhook_attempt',
      'remember_stripe_customer',
      'settle_second_subscription',
      'webhook_delivery_context',
    ];
    expect(
      await rows(
        `
        select n.nspname as schema, p.proname as name,
               has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
               has_function_privilege('service_role', p.oid, 'execute') as service_role
          from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         where p.proname = any ($1)
         order by 2`,
        [serviceOnly],
      ),
    ).toEqual(
      serviceOnly.map((name) => ({
        schema: 'private',
        name,
        authenticated: false,
        service_role: true,
      })),
    );
  });

  it('every function in public is one a signed-in or anonymous caller may run (service-only ones belong in private)', async () => {
    expect(
      await rows(`
        select p.proname as name
          from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public'
           and not has_function_privilege('authenticated', p.oid, 'execute')
           and not has_function_privilege('anon', p.oid, 'execute')
         order by 1`),
    ).toEqual([]);
  });
});
