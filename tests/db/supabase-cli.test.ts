// The real Supabase CLI (npm `supabase`, pinned) against the test stack's Postgres: it sees
// every migration the stack applied, has nothing left to push, and applying the migrations
// itself to a fresh database gives the same schema as the stack's own runner.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, expect, it } from 'vitest';
import { loadConfig, repoRoot } from '../../local/config.ts';
import { applyMigrations, createBootstrappedDatabase, dropDatabase, listMigrations } from '../../local/postgres/database.ts';
import { listMigrationsWithCli, pushMigrations } from '../../local/postgres/supabase-cli.ts';
import { config } from '../support/stack.ts';
import { withDb } from './db-support.ts';

const probes = { cli: 'cli_push_probe', runner: 'runner_probe' };
afterAll(async () => {
  await dropDatabase(config, probes.cli);
  await dropDatabase(config, probes.runner);
});

/** What the migrations create: tables and their RLS, functions, policies, constraints, grants. */
async function schema(url: string): Promise<string[]> {
  return withDb(async (db) => {
    const { rows } = await db.query<{ item: string }>(`
      select 'rel ' || c.oid::regclass::text || ' ' || c.relkind::text || ' ' || c.relrowsecurity || ' ' || coalesce(c.relacl::text, '') as item
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private')
      union all
      select 'fn ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) || ' ' || coalesce(p.proacl::text, '')
        from pg_catalog.pg_proc p where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
      union all
      select 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
        from pg_catalog.pg_policies where schemaname in ('public', 'private', 'storage')
      union all
      select 'con ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_catalog.pg_get_constraintdef(oid)
        from pg_catalog.pg_constraint where connamespace in ('public'::regnamespace, 'private'::regnamespace)
      union all
      select 'migration ' || version || ' ' || coalesce(name, '') from supabase_migrations.schema_migrations
      order by 1`);
    return rows.map((row) => row.item);
  }, url);
}

it('`supabase migration list` sees every migration applied on the test stack; `db push` has nothing to do', async () => {
  const files = (await listMigrations()).map((m) => m.version);
  // Both only read the database: the two CLI runs go side by side.
  const [{ run, migrations }, push] = await Promise.all([
    listMigrationsWithCli(config.urls.db),
    pushMigrations(config.urls.db, { dryRun: true }),
  ]);
  expect(run.code, run.stderr).toBe(0);
  expect(migrations.map((m) => m.local)).toEqual(files);
  expect(migrations.map((m) => m.remote)).toEqual(files);

  expect(push.code, push.stderr).toBe(0);
  expect(push.stdout).toContain('Remote database is up to date.');
});

it('`supabase db push` applies every migration to a fresh database, as the stack runner does', async () => {
  const cliUrl = await createBootstrappedDatabase(config, probes.cli);
  const runnerUrl = await createBootstrappedDatabase(config, probes.runner);
  // Two databases of their own: each is migrated beside the other.
  const [push] = await Promise.all([pushMigrations(cliUrl), applyMigrations(runnerUrl, () => {})]);
  expect(push.code, push.stderr).toBe(0);

  const { migrations } = await listMigrationsWithCli(cliUrl);
  expect(migrations.every((m) => m.remote === m.local)).toBe(true);
  expect(migrations).toHaveLength((await listMigrations()).length);
  expect(await schema(cliUrl)).toEqual(await schema(runnerUrl));
});

it('config.toml uses [local_smtp] (not the deprecated [inbucket]) with the mailbox ports the stack serves', () => {
  const toml = parse(readFileSync(path.join(repoRoot, 'supabase', 'config.toml'), 'utf8')) as Record<string, Record<string, unknown>>;
  expect(toml.inbucket).toBeUndefined();
  const dev = loadConfig('dev');
  expect(toml.local_smtp).toMatchObject({ enabled: true, port: dev.ports.mailboxWeb, smtp_port: dev.ports.smtp });
});
