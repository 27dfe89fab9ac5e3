// The Storage buckets are named once, in the shared domain code (EPISODES_BUCKET,
// BRAND_ASSETS_BUCKET, PROCESSING_PIECES_BUCKET), and product code imports the names: a bucket named again as a literal
// would drift from the one the migrations create. SQL keeps its own literals; tests and the
// benchmarks may spell the names out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EPISODES_BUCKET, PODCAST_FEEDS_BUCKET } from '../../supabase/functions/_shared/domain/episodes.ts';
import { BRAND_ASSETS_BUCKET } from '../../supabase/functions/_shared/domain/onboarding.ts';
import { PROCESSING_PIECES_BUCKET } from '../../supabase/functions/_shared/domain-server/processing-limits.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return entry === 'node_modules' ? [] : sources(file);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [file] : [];
  });

/** The SPA, the functions, the worker and the demo accounts the local stack seeds. */
const productFiles = [
  ...sources(path.join(root, 'web', 'src')),
  ...sources(path.join(root, 'supabase', 'functions')),
  ...sources(path.join(root, 'worker')),
  path.join(root, 'local', 'demo-accounts.ts'),
  // Generated from the schema: its `referencedRelation: "episodes"` names the table. The query
  // keys' `['episodes']` names the cached resource (web/src/lib/query-keys.ts), not the bucket.
].filter((file) => !file.endsWith(path.join('_shared', 'database.types.ts')) && !file.endsWith(path.join('web', 'src', 'lib', 'query-keys.ts')));

describe('bucket names', () => {
  it.each([
    ['episodes', EPISODES_BUCKET, 'supabase/functions/_shared/domain/episodes.ts'],
    ['brand-assets', BRAND_ASSETS_BUCKET, 'supabase/functions/_shared/domain/onboarding.ts'],
    ['processing-pieces', PROCESSING_PIECES_BUCKET, 'supabase/functions/_shared/domain-server/processing-limits.ts'],
    ['podcast-feeds', PODCAST_FEEDS_BUCKET, 'supabase/functions/_shared/domain/episodes.ts'],
  ])('%s is a string literal only where it is defined', (bucket, constant, definedIn) => {
    expect(constant).toBe(bucket);
    // A quoted name, or the name as the bucket segment of a Storage URL.
    const literal = new RegExp(`(['"])${bucket}\\1|/object/(?:sign/|public/|authenticated/)?${bucket}/`);
    const holders = productFiles
      .filter((file) => literal.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(holders).toEqual([definedIn]);
  });
});
