// One error shape, (status, message) (docs/decisions.md, "One error contract"): the SPA's
// ApiError and the functions' HttpError; the worker's ProcessingFailure carries a platform's
// refusal as `status` too. An error class of the product that carries an HTTP status names it
// `status`, so no caller has to know two spellings.
// The local stack is left out: it mimics Supabase's own shapes (Storage's `statusCode`).
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

const productFiles = ['web/src', 'supabase/functions', 'worker'].flatMap((dir) => sources(path.join(root, dir)));

describe('the error shape', () => {
  it.each([
    ['web/src/lib/api-client.ts', 'ApiError'],
    ['supabase/functions/_shared/http-error.ts', 'HttpError'],
  ])('%s: %s is (status, message)', (file, name) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    expect(text).toMatch(
      new RegExp(`class ${name} extends Error \\{\\s*constructor\\(\\s*readonly status: [^,]+,\\s*message: string`),
    );
  });

  it('names an HTTP status `status` in every error class of the product', () => {
    const holders = productFiles
      .filter((file) =>
        /\b(?:readonly|get)\s+(?:httpStatus|statusCode|httpStatusCode)\b/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(root, file));
    expect(holders).toEqual([]);
  });
});
