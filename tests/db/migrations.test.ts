// Migrations: the global setup applied them all to a fresh database; applying again changes
// nothing, the files follow the Supabase CLI's naming, and a database migrated before the
// release baseline is refused.
import { expect, it } from 'vitest';
import {
  applyMigrations,
  createBootstrappedDatabase,
  dropDatabase,
  listMigrations,
} from '../../local/postgres/database.ts';
import { config } from '../support/stack.ts';
import { withDb } from './db-support.ts';

/** A fingerprint of everything the migrations create in our schemas and on storage. */
async function fingerprint(): Promise<string> {
  return withDb(async (db) => {
    const { rows } = await db.query(`
      select string_agg(item, E'\\n' order by item) as fingerprint from (
        select 'rel ' || c.oid::regclass::text || ' ' || c.relkind::text || ' ' || c.relrowsecurity as item
          from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where n.nspname in ('public', 'private')
        union all
        select 'fn ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) || ' ' || coalesce(p.proacl::text, '')
          from pg_catalog.pg_proc p where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
        union all
        select 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '')
          from pg_catalog.pg_policies where schemaname in ('public', 'storage')
        union all
        select 'con ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_catalog.pg_get_constraintdef(oid)
          from pg_catalog.pg_constraint where connamespace = 'public'::regnamespace
        union all
        select 'bucket ' || id || ' ' || public || ' ' || file_size_limit || ' ' || allowed_mime_types::text from storage.buckets
        union all
        select 'plan ' || id || ' ' || coalesce(price_cents, -1) || ' ' || coalesce(episodes_per_month, -1) from public.plans
      ) items`);
    return rows[0].fingerprint as string;
  });
}

it('applied every migration on the fresh database, in order', async () => {
  const files = (await listMigrations()).map((m) => m.version);
  const applied = await withDb(async (db) =>
    (await db.query('select version from supabase_migrations.schema_migrations order by version')).rows.map(
      (r) => r.version,
    ),
  );
  expect(applied).toEqual(files);
});

it('applying the migrations again is a no-op', async () => {
  const before = await fingerprint();
  const lines: string[] = [];
  expect(await applyMigrations(config.urls.db, (line) => lines.push(line))).toEqual([]);
  expect(lines).toEqual([]);
  expect(await fingerprint()).toBe(before);
});

it('names migrations <14-digit version>_<snake_case what it does>.sql', async () => {
  for (const migration of await listMigrations()) {
    expect(migration.version).toMatch(/^\d{14}$/);
    expect(migration.name).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  }
});

it('refuses a database that recorded migrations the directory no longer has, naming them and the reset', async () => {
  const url = await createBootstrappedDatabase(config, 'pre_baseline_probe');
  try {
    await withDb(
      (db) =>
        db.query(
          `insert into supabase_migrations.schema_migrations (version, name) values ('20261125000100', 'private_schema_and_admin_check')`,
        ),
      url,
    );
    await expect(applyMigrations(url, () => {})).rejects.toThrow(/\(20261125000100\).*npm start -- --reset/);
    const applied = await withDb(
      async (db) => (await db.query('select version from supabase_migrations.schema_migrations')).rows,
      url,
    );
    expect(applied).toEqual([{ version: '20261125000100' }]);
  } finally {
    await dropDatabase(config, 'pre_baseline_probe');
  }
});
