// A fresh clone must run on its own: no file of the repository reads or points at anything
// beside it (the project's reference material lives outside the repository).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const skipped = new Set(['node_modules', '.git', '.local-data', 'dist', 'test-results', 'coverage']);
const outside = [/\.\.\/shared(?![\w.-])/, /\/work\/shared/, /\bARCHITECTURE\.md\b/, /\bCONVENTIONS\.md\b/, /gotrue-openapi\.yaml/];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|js|mjs|cjs|json|md|sh|sql|toml|yaml|yml|html)$|^run$/.test(entry.name)) yield full;
  }
}

describe('the repository stands alone', () => {
  it('has no file that reads or links outside it', () => {
    const self = path.relative(root, import.meta.filename);
    const offenders: string[] = [];
    for (const file of files(root)) {
      const relative = path.relative(root, file);
      if (relative === self) continue;
      const text = readFileSync(file, 'utf8');
      for (const pattern of outside) if (pattern.test(text)) offenders.push(`${relative}: ${pattern.source}`);
    }
    expect(offenders).toEqual([]);
  });
});
