// One database access path per purpose (docs/decisions.md, "Architecture: the rooms"): the
// caller's own data through PostgREST as the caller (userClient), service work through db(), and
// serviceClient() only for what Postgres cannot do: the Auth admin API and Storage. A table read
// or RPC through serviceClient() would be a third way to reach the database, with the service
// role's rights and none of db()'s transactions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const functionsDir = path.resolve(import.meta.dirname, '..', '..', 'supabase', 'functions');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });

describe('database access in the functions', () => {
  it('never goes through the service client (PostgREST with the service key)', () => {
    // Every use names what it reaches, Auth or Storage, so none can hide in a variable either
    // (`const client = ok ? serviceClient() : userClient(token); client.from(...)`).
    const holders = sources(functionsDir)
      .filter((file) => !file.endsWith(path.join('_shared', 'supabase-clients.ts')))
      .filter((file) => /serviceClient\(\)(?!\s*\.(?:auth|storage)\b)/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(functionsDir, file));
    expect(holders).toEqual([]);
  });

  it('reads the measured dashboard data as the caller only through readAsCaller in the dashboard routes', () => {
    const holders = sources(functionsDir)
      .filter((file) => /\breadAsCaller\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(functionsDir, file))
      .sort();
    expect(holders).toEqual(['_shared/session.ts', 'api/routes/episodes.ts']);
  });
});

describe('Storage in the functions', () => {
  it('goes through storage-js, but for the first-bytes read of an episode file', () => {
    // storage-js's download cannot ask for a range (docs/decisions.md, "One way for each server
    // job"); every other Storage call (upload, remove, signed URLs) goes through the client.
    const holders = sources(functionsDir)
      .filter((file) => /\/storage\/v1\/object\/\$\{|`\$\{[^`]*\}\/storage\/v1/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(functionsDir, file));
    expect(holders).toEqual(['api/routes/episodes.ts']);
  });
});
