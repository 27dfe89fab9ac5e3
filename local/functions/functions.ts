// Edge Functions host: Deno 2 (npm `deno`) running supabase/functions/* like
// `supabase functions serve`: `verify_jwt` from config.toml, the Supabase env variables,
// and the project's secrets. In dev the stack restarts it when a function's files change
// (functionSourceDirs).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { loadEnvFileKeys, repoRoot, type StackConfig } from '../config.ts';
import { spawnService, type ChildService } from '../lib/process.ts';
import { loadSigningKeys } from '../lib/signing-keys.ts';
import { mailFunctionEnv } from '../mailbox/settings.ts';

const require = createRequire(import.meta.url);
const functionsDir = path.join(repoRoot, 'supabase', 'functions');

export function denoBinary(): string {
  // npm `deno` puts the real binary beside its Node wrapper (bin.cjs) on install.
  const binary = path.join(path.dirname(require.resolve('deno/package.json')), process.platform === 'win32' ? 'deno.exe' : 'deno');
  if (!existsSync(binary)) throw new Error('Deno binary missing: npm package `deno` is not installed (run npm ci)');
  return binary;
}

/** `[functions.<name>] verify_jwt` from supabase/config.toml; Supabase's default is true. */
function readVerifyJwt(): Record<string, boolean> {
  const configFile = path.join(repoRoot, 'supabase', 'config.toml');
  const config = parseToml(readFileSync(configFile, 'utf8')) as { functions?: Record<string, { verify_jwt?: boolean }> };
  const out: Record<string, boolean> = {};
  for (const [name, settings] of Object.entries(config.functions ?? {})) out[name] = settings.verify_jwt ?? true;
  return out;
}

/** The functions `supabase functions deploy` bundles: each folder with an index.ts, `_shared` aside. */
export async function deployedFunctions(): Promise<{ name: string; dir: string; entry: string; config: string }[]> {
  return (await readdir(functionsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_') && existsSync(path.join(functionsDir, entry.name, 'index.ts')))
    .map(({ name }) => {
      const dir = path.join(functionsDir, name);
      return { name, dir, entry: path.join(dir, 'index.ts'), config: path.join(dir, 'deno.json') };
    });
}

interface DenoLock {
  version: string;
  specifiers?: Record<string, string>;
  npm?: Record<string, unknown>;
  workspace?: { dependencies?: string[] };
}

/** Adds `from` to `into`, refusing two functions that pin one name or specifier differently. */
function mergeInto<T>(into: Record<string, T>, from: Record<string, T>, what: (key: string) => string): void {
  for (const [key, value] of Object.entries(from)) {
    if (key in into && JSON.stringify(into[key]) !== JSON.stringify(value)) throw new Error(`${what(key)}: two functions disagree`);
    into[key] = value;
  }
}

/**
 * One Deno config for the host, which runs every function in one process: the union of every
 * function's own deno.json import map, and of their deno.lock files (frozen), so the host loads
 * exactly the versions each function deploys with.
 */
export async function writeHostDenoConfig(target: string): Promise<void> {
  const imports: Record<string, string> = {};
  const lock: Required<DenoLock> & { workspace: { dependencies: string[] } } = { version: '', specifiers: {}, npm: {}, workspace: { dependencies: [] } };
  for (const fn of await deployedFunctions()) {
    const own = (JSON.parse(await readFile(fn.config, 'utf8')).imports ?? {}) as Record<string, string>;
    mergeInto(imports, own, (name) => `supabase/functions/${fn.name}/deno.json maps "${name}"`);
    const lockFile = path.join(fn.dir, 'deno.lock');
    if (!existsSync(lockFile)) throw new Error(`supabase/functions/${fn.name}/deno.lock is missing: run npx tsx scripts/deno-check.ts --update-locks`);
    const ownLock = JSON.parse(await readFile(lockFile, 'utf8')) as DenoLock;
    if (lock.version && ownLock.version !== lock.version) throw new Error(`supabase/functions/${fn.name}/deno.lock: lockfile version ${ownLock.version}, another ${lock.version}`);
    lock.version = ownLock.version;
    mergeInto(lock.specifiers, ownLock.specifiers ?? {}, (key) => `supabase/functions/${fn.name}/deno.lock pins ${key}`);
    mergeInto(lock.npm, ownLock.npm ?? {}, (key) => `supabase/functions/${fn.name}/deno.lock has ${key}`);
    lock.workspace.dependencies = [...new Set([...lock.workspace.dependencies, ...(ownLock.workspace?.dependencies ?? [])])].sort();
  }
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
  const lockPath = path.join(path.dirname(target), 'deno.lock');
  await writeFile(lockPath, `${JSON.stringify({ ...lock, specifiers: sorted(lock.specifiers), npm: sorted(lock.npm) }, null, 2)}\n`);
  await writeFile(target, JSON.stringify({ imports, nodeModulesDir: 'none', lock: { path: lockPath, frozen: true } }, null, 2));
}

/** The folders whose files the host runs: the functions, the host itself, and any extra ones. */
export function functionSourceDirs(extraDirs: string[] = []): string[] {
  return [functionsDir, import.meta.dirname, ...extraDirs];
}

interface FunctionsOptions {
  /** More folders of functions to host beside supabase/functions (test fixtures). */
  extraDirs?: string[];
  /** Settings that point the functions at this stack's sandboxes (the stack decides them). */
  sandboxEnv?: Record<string, string>;
  onLine?: (line: string) => void;
}

/**
 * Every setting the functions read (supabase/functions/_shared/settings.ts), passed explicitly
 * for this stack: the project's secrets from .env, what the platform sets (SUPABASE_*), the
 * stack's own web server as the site and its mailbox, and the sandboxes' settings the stack decided.
 */
export function functionSettingsEnv(config: StackConfig, sandboxEnv: Record<string, string>): Record<string, string> {
  const secrets: Record<string, string> = {};
  // Auth's private signing keys stay with Auth, as on the hosted platform.
  for (const key of loadEnvFileKeys())
    if (config.env[key] !== undefined && key !== 'SUPABASE_JWT_SIGNING_KEYS') secrets[key] = config.env[key];
  return {
    ...secrets,
    SUPABASE_URL: config.urls.api,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.urls.db,
    // The local stack's own web server is the site (its port differs under npm test).
    SITE_URL: config.urls.web,
    ALLOWED_ORIGIN: config.urls.web,
    // E-mail goes to this stack's mailbox (or the SMTP server .env names).
    ...mailFunctionEnv(config),
    ...sandboxEnv,
  };
}

export async function startFunctions(config: StackConfig, options: FunctionsOptions): Promise<ChildService> {
  const workDir = path.join(config.dataDir, 'functions');
  await mkdir(workDir, { recursive: true });
  const denoConfig = path.join(workDir, 'deno.json');
  await writeHostDenoConfig(denoConfig);

  const args = ['run', '-A', `--config=${denoConfig}`, path.join(repoRoot, 'local', 'functions', 'deno-host.ts')];

  return spawnService({
    name: 'Edge Functions (Deno)',
    command: denoBinary(),
    args,
    cwd: repoRoot,
    env: {
      ...functionSettingsEnv(config, options.sandboxEnv ?? {}),
      DENO_DIR: config.env.DENO_DIR ?? path.join(repoRoot, 'node_modules', '.cache', 'deno'),
      DENO_NO_UPDATE_CHECK: '1',
      SUPABASE_JWT_SECRET: config.jwtSecret,
      CASTLOOP_JWKS: JSON.stringify(loadSigningKeys(config).jwks),
      CASTLOOP_FUNCTIONS_DIRS: JSON.stringify([functionsDir, ...(options.extraDirs ?? [])]),
      CASTLOOP_FUNCTIONS_PORT: String(config.ports.functions),
      CASTLOOP_FUNCTIONS_HOST: config.host,
      CASTLOOP_VERIFY_JWT: JSON.stringify(readVerifyJwt()),
    },
    // First start may download npm packages into DENO_DIR.
    ready: `${config.urls.functions}/_internal/health`,
    readyTimeoutMs: 180_000,
    onLine: options.onLine,
  });
}
