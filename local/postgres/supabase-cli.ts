// The real Supabase CLI (npm `supabase`, pinned; its Go binary comes as an optional
// dependency) for the database commands that need no Docker: `db push` and `migration list`
// against a database URL, run in the repository so it reads supabase/config.toml and
// supabase/migrations.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../config.ts';

const cli = path.join(repoRoot, 'node_modules', '.bin', 'supabase');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The local Postgres has no TLS: the CLI must be told not to try it. */
export function cliDbUrl(dbUrl: string): string {
  const url = new URL(dbUrl);
  url.searchParams.set('sslmode', 'disable');
  return url.href;
}

export function supabaseCli(args: string[], timeoutMs = 120_000): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      cli,
      args,
      // Telemetry and update checks are network calls that only slow a local run down.
      { cwd: repoRoot, timeout: timeoutMs, env: { ...process.env, DO_NOT_TRACK: '1', SUPABASE_TELEMETRY_DISABLED: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

/** `supabase db push --db-url`: applies the migrations the database has not recorded. */
export function pushMigrations(dbUrl: string, options: { dryRun?: boolean } = {}): Promise<CliRun> {
  return supabaseCli(['db', 'push', '--db-url', cliDbUrl(dbUrl), '--yes', ...(options.dryRun ? ['--dry-run'] : [])]);
}

/** `supabase migration list --db-url`: each local migration and whether the database has it. */
export async function listMigrationsWithCli(
  dbUrl: string,
): Promise<{ run: CliRun; migrations: Array<{ local: string; remote: string }> }> {
  const run = await supabaseCli(['migration', 'list', '--db-url', cliDbUrl(dbUrl), '--output-format', 'json']);
  const parsed = run.code === 0 ? (JSON.parse(run.stdout) as { migrations: Array<{ local: string; remote: string }> }) : null;
  return { run, migrations: parsed?.migrations ?? [] };
}
