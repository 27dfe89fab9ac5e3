// supabase/schemas: the current definition of every object the migrations create, one file per
// area (Supabase's declarative schema layout; docs/decisions.md "Database"). The Supabase CLI
// reads them in the order `[db.migrations] schema_paths` of supabase/config.toml lists them;
// tests/db/schema-files.test.ts applies them the same way to a fresh database and compares it
// with one the migrations built.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { parse } from 'smol-toml';
import { repoRoot } from '../config.ts';

const supabaseDir = path.join(repoRoot, 'supabase');

/** The schema files, absolute, in the order config.toml's `[db.migrations] schema_paths` gives. */
export async function listSchemaFiles(configFile = path.join(supabaseDir, 'config.toml')): Promise<string[]> {
  const toml = parse(await readFile(configFile, 'utf8')) as { db?: { migrations?: { schema_paths?: unknown } } };
  const paths = toml.db?.migrations?.schema_paths;
  if (!Array.isArray(paths) || !paths.every((entry) => typeof entry === 'string' && entry.endsWith('.sql'))) {
    throw new Error(`${configFile}: [db.migrations] schema_paths must list the schema files (.sql), in order`);
  }
  // Relative to the supabase directory, as the CLI resolves them.
  return paths.map((entry: string) => path.resolve(path.dirname(configFile), entry));
}

/**
 * Runs the schema files, in order, on a bootstrapped database in one transaction, as `postgres`
 * (what `supabase db diff` does to build its database from supabase/schemas). A file that fails
 * is named.
 */
export async function applySchemaFiles(dbUrl: string, files?: string[]): Promise<void> {
  const ordered = files ?? (await listSchemaFiles());
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('begin');
    for (const file of ordered) {
      const sql = await readFile(file, 'utf8');
      try {
        await client.query(sql);
      } catch (error) {
        throw new Error(`Schema file ${path.relative(repoRoot, file)} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}
