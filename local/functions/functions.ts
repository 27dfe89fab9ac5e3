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

/** One Deno config for the host: the union of every function's own deno.json import map. */
export async function writeHostDenoConfig(target: string): Promise<void> {
  const imports: Record<string, string> = {};
  for (const entry of await readdir(functionsDir, { withFileTypes: true })) {
    const file = path.join(functionsDir, entry.name, 'deno.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const own = (JSON.parse(await readFile(file, 'utf8')).imports ?? {}) as Record<string, string>;
    for (const [name, specifier] of Object.entries(own)) {
      if (imports[name] && imports[name] !== specifier) {
        throw new Error(`supabase/functions/${entry.name}/deno.json maps "${name}" to ${specifier}, another function to ${imports[name]}`);
      }
      imports[name] = specifier;
    }
  }
  await writeFile(target, JSON.stringify({ imports, nodeModulesDir: 'none' }, null, 2));
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

export async function startFunctions(config: StackConfig, options: FunctionsOptions): Promise<ChildService> {
  const workDir = path.join(config.dataDir, 'functions');
  await mkdir(workDir, { recursive: true });
  const denoConfig = path.join(workDir, 'deno.json');
  await writeHostDenoConfig(denoConfig);

  const secrets: Record<string, string> = {};
  // Auth's private signing keys stay with Auth, as on the hosted platform.
  for (const key of loadEnvFileKeys())
    if (config.env[key] !== undefined && key !== 'SUPABASE_JWT_SIGNING_KEYS') secrets[key] = config.env[key];

  const args = ['run', '-A', '--no-lock', `--config=${denoConfig}`, path.join(repoRoot, 'local', 'functions', 'deno-host.ts')];

  return spawnService({
    name: 'Edge Functions (Deno)',
    command: denoBinary(),
    args,
    cwd: repoRoot,
    env: {
      ...secrets,
      DENO_DIR: config.env.DENO_DIR ?? path.join(repoRoot, 'node_modules', '.cache', 'deno'),
      DENO_NO_UPDATE_CHECK: '1',
      SUPABASE_URL: config.urls.api,
      SUPABASE_ANON_KEY: config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
      SUPABASE_DB_URL: config.urls.db,
      SUPABASE_JWT_SECRET: config.jwtSecret,
      CASTLOOP_JWKS: JSON.stringify(loadSigningKeys(config).jwks),
      // The local stack's own web server is the site (its port differs under npm test).
      SITE_URL: config.urls.web,
      ALLOWED_ORIGIN: config.urls.web,
      ...options.sandboxEnv,
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
