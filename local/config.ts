// One place that knows every port, path and key of the local stack.
// Values come from the process environment, then `.env`, then `.env.example` defaults.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Parses a dotenv file: KEY=value lines, `#` comments, optional single or double quotes. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 1) continue;
    const key = line.slice(0, eq).trim().replace(/^export\s+/, '');
    let value = line.slice(eq + 1).trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    out[key] = value;
  }
  return out;
}

function readDotenv(file: string): Record<string, string> {
  return existsSync(file) ? parseDotenv(readFileSync(file, 'utf8')) : {};
}

/** Names defined in `.env.example` or `.env`: the project's own settings and function secrets. */
export function loadEnvFileKeys(): string[] {
  const keys = new Set([
    ...Object.keys(readDotenv(path.join(repoRoot, '.env.example'))),
    ...Object.keys(readDotenv(path.join(repoRoot, '.env'))),
  ]);
  return [...keys].filter((key) => !key.startsWith('VITE_'));
}

/** The merged environment: process env wins over `.env`, which wins over `.env.example`. */
export function loadEnv(): Record<string, string> {
  const merged: Record<string, string> = {
    ...readDotenv(path.join(repoRoot, '.env.example')),
    ...readDotenv(path.join(repoRoot, '.env')),
  };
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

export type StackProfile = 'dev' | 'test';

export interface StackConfig {
  profile: StackProfile;
  env: Record<string, string>;
  dataDir: string;
  host: string;
  ports: {
    gateway: number;
    db: number;
    mailboxWeb: number;
    smtp: number;
    sandbox: number;
    web: number;
    rest: number;
    functions: number;
  };
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  dbPassword: string;
  /** Superuser password (`supabase_admin`): used only by the stack itself, never by app code. */
  adminDbPassword: string;
  urls: {
    api: string;
    db: string;
    adminDb: string;
    mailbox: string;
    sandbox: string;
    web: string;
    rest: string;
    functions: string;
  };
}

function int(env: Record<string, string>, key: string): number {
  const value = Number(env[key]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${key} must be a port number, got "${env[key] ?? ''}"`);
  return value;
}

/**
 * Builds the stack configuration. The `test` profile puts every port at CASTLOOP_TEST_PORT_BASE
 * plus the last three digits of its dev port (54321 -> 23321, web 3000 -> 23000) and uses its
 * own data directory, so `npm test` never collides with a running `npm start`. The base sits
 * below Linux's ephemeral range (32768-60999): a stack started mid-run must not find its port
 * taken by one of the test suite's own client connections. A stack listens on these ports only
 * (internal servers take a port the system picks), within base+0..base+999, so stacks running
 * side by side need bases at least 1000 apart.
 */
export function loadConfig(profile: StackProfile = 'dev', envOverride?: Record<string, string>): StackConfig {
  const env = { ...loadEnv(), ...envOverride };
  const testBase = Number(env.CASTLOOP_TEST_PORT_BASE ?? 23000);
  const port = (key: string) => (profile === 'test' ? testBase + (int(env, key) % 1000) : int(env, key));
  const host = '127.0.0.1';
  const ports = {
    gateway: port('SUPABASE_API_PORT'),
    db: port('SUPABASE_DB_PORT'),
    mailboxWeb: port('MAILBOX_PORT'),
    smtp: port('SMTP_PORT'),
    sandbox: port('SANDBOX_PORT'),
    web: port('WEB_PORT'),
    rest: port('POSTGREST_PORT'),
    functions: port('FUNCTIONS_PORT'),
  };
  const baseDataDir = path.resolve(repoRoot, env.CASTLOOP_DATA_DIR ?? '.local-data');
  const dataDir = profile === 'test' ? path.join(baseDataDir, 'test') : path.join(baseDataDir, 'dev');
  const dbPassword = env.SUPABASE_DB_PASSWORD ?? 'postgres';
  const adminDbPassword = env.SUPABASE_ADMIN_DB_PASSWORD ?? dbPassword;
  return {
    profile,
    env,
    dataDir,
    host,
    ports,
    jwtSecret: env.SUPABASE_JWT_SECRET,
    anonKey: env.SUPABASE_ANON_KEY,
    serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    dbPassword,
    adminDbPassword,
    urls: {
      api: `http://${host}:${ports.gateway}`,
      db: `postgresql://postgres:${dbPassword}@${host}:${ports.db}/postgres`,
      adminDb: `postgresql://supabase_admin:${adminDbPassword}@${host}:${ports.db}/postgres`,
      mailbox: `http://${host}:${ports.mailboxWeb}`,
      sandbox: `http://${host}:${ports.sandbox}`,
      web: `http://${host}:${ports.web}`,
      rest: `http://${host}:${ports.rest}`,
      functions: `http://${host}:${ports.functions}`,
    },
  };
}
