// supabase/schemas holds the current definition of every object the migrations create
// (docs/decisions.md "Database"). Two fresh databases in the test stack's Postgres, both
// bootstrapped as a new hosted project: one built by the migrations, one by the schema files (as
// `supabase db diff` builds its database from them); their normalized dumps
// (local/postgres/schema-dump.ts: every object with its grants, policies, comments and
// definition, function bodies verbatim, and the rows the migrations write) must be equal.
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';
import {
  applyMigrations,
  createBootstrappedDatabase,
  dropDatabase,
  listMigrations,
} from '../../local/postgres/database.ts';
import { dumpDifference, schemaDump } from '../../local/postgres/schema-dump.ts';
import { applySchemaFiles, listSchemaFiles } from '../../local/postgres/schema-files.ts';
import { config } from '../support/stack.ts';

const schemasDir = path.join(repoRoot, 'supabase', 'schemas');
const probes = { migrations: 'schema_files_migrations_probe', schemas: 'schema_files_schemas_probe' };
let migrationsUrl: string;
let schemasUrl: string;
let schemasDump: string[];

beforeAll(async () => {
  // One after the other: bootstrapping sets role settings, which are cluster-wide.
  migrationsUrl = await createBootstrappedDatabase(config, probes.migrations);
  schemasUrl = await createBootstrappedDatabase(config, probes.schemas);
  // Each database is built beside the other.
  await Promise.all([applyMigrations(migrationsUrl, () => {}), applySchemaFiles(schemasUrl)]);
  schemasDump = await schemaDump(schemasUrl);
});

afterAll(async () => {
  await dropDatabase(config, probes.migrations);
  await dropDatabase(config, probes.schemas);
});

/** The dump lines only the migrations build (-) and only the schema files build (+). */
async function differences(): Promise<string[]> {
  return dumpDifference(await schemaDump(migrationsUrl), schemasDump);
}

it('supabase/schemas builds the database the migrations build', async () => {
  expect(
    await differences(),
    'supabase/schemas differs from supabase/migrations (- only the migrations build it, + only the schema files): ' +
      'edit the object in its schema file to match (docs/decisions.md "Database")',
  ).toEqual([]);
});

it('config.toml lists every schema file, in the order of their numbers', async () => {
  const onDisk = (await readdir(schemasDir)).filter((file) => file.endsWith('.sql')).sort();
  const listed = await listSchemaFiles();
  expect(listed.map((file) => path.relative(schemasDir, file))).toEqual(onDisk);
});

it('defines each object once: no `or replace` or `if not exists`, one cron job and comment per name', async () => {
  // The statements without comments, function bodies and cron commands (dollar-quoted).
  const statements = (await Promise.all((await listSchemaFiles()).map((file) => readFile(file, 'utf8'))))
    .map((sql) =>
      sql
        .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
        .replace(/--[^\n]*/g, '')
        .replace(/\/\*[\s\S]*?\*\//g, ''),
    )
    .join('\n');
  // Postgres refuses a second `create` of a function, table, index, trigger, policy, type, cast or
  // schema, so the build above proves each is defined once, unless a statement replaces one.
  expect(statements.match(/\bor\s+replace\b|\bif\s+not\s+exists\b/gi)).toBeNull();
  // Statements Postgres lets run twice, the second winning.
  const repeated = (pattern: RegExp) => {
    const names = [...statements.matchAll(pattern)].map((match) => match[1].replace(/\s+/g, ' ').toLowerCase());
    return names.filter((name, index) => names.indexOf(name) !== index);
  };
  expect(repeated(/cron\.schedule\(\s*'([^']+)'/g)).toEqual([]);
  expect(repeated(/comment\s+on\s+(\w+\s+[^\s]+)\s+is/gi)).toEqual([]);
});

it('fails, naming the object, when a migration changes it and its schema file does not', async () => {
  // Only what this migration changes (the first test names any other difference).
  const already = new Set(await differences());
  // The migrations plus one that restates a function and changes a column default.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'castloop-migrations-'));
  try {
    for (const migration of await listMigrations()) {
      await copyFile(migration.file, path.join(dir, path.basename(migration.file)));
    }
    await writeFile(
      path.join(dir, '99991231000000_changed_without_its_schema_file.sql'),
      `create or replace function private.is_blank(p_value text)
       returns boolean language sql immutable set search_path = ''
       as $$ select coalesce(trim(p_value), '') = '' $$;
       alter table public.plans alter column description set default 'A plan';`,
    );
    expect(await applyMigrations(migrationsUrl, () => {}, dir)).toEqual(['99991231000000']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const diff = (await differences()).filter((line) => !already.has(line));
  const named = (prefix: string) => diff.filter((line) => line.startsWith(prefix));
  expect(named('- function private.is_blank(text) ')).toEqual([
    expect.stringContaining(`select coalesce(trim(p_value), '') = ''`),
  ]);
  expect(named('+ function private.is_blank(text) ')).toEqual([expect.stringContaining(`'not provided'`)]);
  expect(named('- column plans #5 description ')).toEqual([expect.stringContaining(`default='A plan'::text`)]);
  expect(named('+ column plans #5 description ')).toEqual([expect.stringContaining(`default=''::text`)]);
  expect(diff).toHaveLength(4);
});
