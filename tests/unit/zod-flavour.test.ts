// Two zod flavours, one rule (docs/decisions.md, "Architecture: the rooms"): what the SPA bundles
// (web/src and the shared domain code) uses zod/mini, whose functions tree-shake, for the first
// load's size; server-only code (the functions' own code, _shared/domain-server, the worker,
// the local stack) uses classic zod, whose methods read more easily and cost nothing there. Both
// are the same zod 4 package, so parseJsonBody takes either.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return entry === 'node_modules' ? [] : sources(file);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [file] : [];
  });

const sharedDomain = path.join(root, 'supabase', 'functions', '_shared', 'domain') + path.sep;
const bundled = (file: string) => file.startsWith(path.join(root, 'web', 'src') + path.sep) || file.startsWith(sharedDomain);

const zodImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/from '(zod(?:\/[\w-]+)?)'/g)].map((match) => match[1]);

const product = [
  ...sources(path.join(root, 'web', 'src')),
  ...sources(path.join(root, 'supabase', 'functions')),
  ...sources(path.join(root, 'worker')),
  ...sources(path.join(root, 'local')),
];

describe('zod', () => {
  it('is zod/mini in what the SPA bundles', () => {
    const classic = product.filter((file) => bundled(file) && zodImports(file).some((name) => name !== 'zod/mini'));
    expect(classic.map((file) => path.relative(root, file))).toEqual([]);
  });

  it('is classic zod in server-only code', () => {
    const mini = product.filter((file) => !bundled(file) && zodImports(file).some((name) => name !== 'zod'));
    expect(mini.map((file) => path.relative(root, file))).toEqual([]);
  });

  it('is imported somewhere on both sides (the scan sees the imports)', () => {
    expect(product.some((file) => bundled(file) && zodImports(file).includes('zod/mini'))).toBe(true);
    expect(product.some((file) => !bundled(file) && zodImports(file).includes('zod'))).toBe(true);
  });
});
