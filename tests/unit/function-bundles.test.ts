// Each Edge Function deploys as its own bundle, resolved with its own deno.json and deno.lock
// (`supabase functions deploy`), not with the union the local host runs them with: its own map
// must name every package its code reaches, at the version the rest of the project locks.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployedFunctions } from '../../local/functions/functions.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const packageLock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};
const functions = await deployedFunctions();

const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every specifier that is neither relative nor built in, reachable from `entry` through relative imports. */
function externalImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) external.add(specifier);
    }
  };
  visit(entry);
  return external;
}

/** `npm:name@version[/path]` (also Deno's `npm:/name@version/` prefix form) -> name and version. */
function npmPackage(specifier: string): { name: string; version: string } | null {
  const match = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(specifier);
  return match ? { name: match[1], version: match[2] } : null;
}

const importMap = (config: string) =>
  (JSON.parse(readFileSync(config, 'utf8')).imports ?? {}) as Record<string, string>;

describe('every Edge Function bundle', () => {
  it('finds the deployed functions', () => {
    expect(functions.map((fn) => fn.name)).toEqual(
      expect.arrayContaining(['api', 'deliver-submissions', 'stripe-webhook']),
    );
  });

  it.each(functions.map((fn) => [fn.name, fn] as const))(
    '%s: its own import map names every package its code imports',
    (_name, fn) => {
      const map = importMap(fn.config);
      const covered = (specifier: string) =>
        specifier.startsWith('npm:') ||
        specifier in map ||
        Object.keys(map).some((key) => key.endsWith('/') && specifier.startsWith(key));
      expect([...externalImports(fn.entry)].filter((specifier) => !covered(specifier))).toEqual([]);
    },
  );

  it.each(functions.map((fn) => [fn.name, fn] as const))(
    '%s: pins exact versions, the ones package-lock.json installs',
    (_name, fn) => {
      const pins = [
        ...Object.values(importMap(fn.config)),
        ...[...externalImports(fn.entry)].filter((s) => s.startsWith('npm:')),
      ];
      for (const specifier of pins) {
        const pkg = npmPackage(specifier);
        expect(pkg, specifier).not.toBeNull();
        expect(pkg!.version, specifier).toMatch(/^\d+\.\d+\.\d+$/);
        const locked = packageLock.packages[`node_modules/${pkg!.name}`]?.version;
        if (locked) expect(`${pkg!.name}@${pkg!.version}`).toBe(`${pkg!.name}@${locked}`);
      }
    },
  );

  it.each(functions.map((fn) => [fn.name, fn] as const))(
    '%s: has its deno.lock beside its deno.json, holding what the map pins',
    (_name, fn) => {
      const lockFile = path.join(fn.dir, 'deno.lock');
      expect(existsSync(lockFile)).toBe(true);
      const locked = (JSON.parse(readFileSync(lockFile, 'utf8')) as { workspace: { dependencies: string[] } }).workspace
        .dependencies;
      for (const specifier of Object.values(importMap(fn.config))) {
        const pkg = npmPackage(specifier)!;
        expect(locked, specifier).toContain(`npm:${pkg.name}@${pkg.version}`);
      }
    },
  );

  it('is checked one by one with its own config and frozen lock, not with the host union', () => {
    const script = readFileSync(path.join(root, 'scripts', 'deno-check.ts'), 'utf8');
    expect(script).toMatch(/const own = \[`--frozen=\$\{!updateLocks\}`, `--config=\$\{fn\.config\}`\]/);
    expect(script).toMatch(/\['install', '--quiet', \.\.\.own, '--entrypoint', fn\.entry\]/);
    expect(script).toMatch(/\['check', \.\.\.own, fn\.entry\]/);
    expect(script + readFileSync(path.join(root, 'local', 'functions', 'functions.ts'), 'utf8')).not.toContain(
      '--no-lock',
    );
  });
});

describe('one supabase-js version', () => {
  it('in every function and in package.json', () => {
    const versions = new Set(
      functions
        .map((fn) => importMap(fn.config)['@supabase/supabase-js'])
        .filter(Boolean)
        .map((s) => npmPackage(s)!.version),
    );
    versions.add(packageLock.packages['node_modules/@supabase/supabase-js'].version);
    expect([...versions]).toHaveLength(1);
  });

  it('and one copy of each client package for the SPA and the tests, at that version', () => {
    // supabase-js and the packages it is made of; a second copy anywhere in the tree (a nested
    // node_modules) would be a second version the SPA or a test could load.
    const clients = /(?:^|\/)node_modules\/@supabase\/(supabase|auth|postgrest|storage|realtime|functions)-js$/;
    const copies = Object.entries(packageLock.packages)
      .filter(([key]) => clients.test(key))
      .map(([key, { version }]) => `${key}@${version}`);
    const version = packageLock.packages['node_modules/@supabase/supabase-js'].version;
    expect(copies.sort()).toEqual(
      ['auth', 'functions', 'postgrest', 'realtime', 'storage', 'supabase'].map(
        (name) => `node_modules/@supabase/${name}-js@${version}`,
      ),
    );
  });
});
