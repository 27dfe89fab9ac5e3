// Every function reads a request body one way: JSON through parseJsonBody (capped, parsed, checked
// with a schema), multipart through the streamed multipart reader, and only the Stripe webhook,
// which must verify the signature over the exact bytes, takes the raw text from readBodyText with
// its own cap. A second way (req.json(), c.req.text(), readBodyText then JSON.parse) would skip
// the cap or the 400 for bad JSON.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const functionsDir = path.resolve(import.meta.dirname, '..', '..', 'supabase', 'functions');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });

/** Files (relative to supabase/functions) whose source matches `pattern`. */
const filesMatching = (pattern: RegExp): string[] =>
  sources(functionsDir)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(functionsDir, file))
    .sort();

describe('request bodies in the functions', () => {
  it('are never read with the Fetch or Hono body methods', () => {
    expect(filesMatching(/\b(?:req|request|c\.req(?:\.raw)?)\.(?:json|text|arrayBuffer|formData|blob|bytes|parseBody)\s*\(/)).toEqual([]);
  });

  it('are streamed only by the capped readers (and cancelled by the entry point)', () => {
    // `.body?.cancel()` discards a body unread; every other touch of the stream is a read.
    expect(filesMatching(/\b(?:req|request|c\.req\.raw)\.body\b(?!\?\.cancel\(\))/)).toEqual([
      '_shared/http-error.ts',
      '_shared/multipart.ts',
      '_shared/serve.ts',
    ]);
  });

  it('come as raw text only to the Stripe webhook; JSON goes through parseJsonBody', () => {
    expect(filesMatching(/\breadBodyText\s*\(/)).toEqual(['_shared/http-error.ts', 'stripe-webhook/handler.ts']);
  });
});
