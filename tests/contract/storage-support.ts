// Helpers for the Storage contract tests: user JWTs minted with the project secret (the local
// Auth server is not needed), supabase-js clients per caller, test buckets and RLS policies.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT, type JWTPayload } from 'jose';
import { config, withDb } from '../support/stack.ts';

const secret = new TextEncoder().encode(config.jwtSecret);

export const storageUrl = `${config.urls.api}/storage/v1`;
export const storageDir = path.join(config.dataDir, 'storage');

export function userJwt(sub: string, expiresIn: string | number = '1h'): Promise<string> {
  return new SignJWT({ sub, role: 'authenticated', aud: 'authenticated', email: `${sub}@example.com` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(secret);
}

/** A signed-URL token with `claims`, as it stands once its lifetime has run out (issued that long ago, and a second more). */
export function lapsedSignedUrlToken(claims: JWTPayload): Promise<string> {
  const lifetime = claims.exp! - claims.iat!;
  const iat = Math.floor(Date.now() / 1000) - lifetime - 1;
  return new SignJWT({ ...claims, iat, exp: iat + lifetime }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
}

/** Realtime is never used here; Node 20 has no WebSocket, so give supabase-js a stub. */
class NoRealtime {
  constructor() {
    throw new Error('realtime is not used in storage tests');
  }
}

/** A supabase-js client that calls as `token` (a user JWT, or the service role key). */
export function clientAs(token?: string): SupabaseClient {
  return createClient(config.urls.api, config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    realtime: { transport: NoRealtime as unknown as never },
  });
}

export interface TestUser {
  id: string;
  jwt: string;
  client: SupabaseClient;
}

export async function testUser(): Promise<TestUser> {
  const id = randomUUID();
  const jwt = await userJwt(id);
  return { id, jwt, client: clientAs(jwt) };
}

export const buckets = {
  private: 'test-private',
  public: 'test-public',
  limited: 'test-limited',
  tus: 'test-tus',
};

/** Test buckets, and policies "a user reads and writes only under the folder named by their id". */
export async function setUpTestBuckets(): Promise<void> {
  await withDb(async (db) => {
    await db.query(`
      insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
        ('${buckets.private}', '${buckets.private}', false, null, null),
        ('${buckets.public}', '${buckets.public}', true, null, null),
        ('${buckets.limited}', '${buckets.limited}', false, 1048576, array['image/*', 'text/plain']),
        ('${buckets.tus}', '${buckets.tus}', false, null, null)
      on conflict (id) do nothing;

      drop policy if exists "storage tests: own folder select" on storage.objects;
      drop policy if exists "storage tests: own folder insert" on storage.objects;
      drop policy if exists "storage tests: own folder update" on storage.objects;
      drop policy if exists "storage tests: own folder delete" on storage.objects;
      create policy "storage tests: own folder select" on storage.objects for select to authenticated
        using (bucket_id like 'test-%' and (storage.foldername(name))[1] = (select auth.uid())::text);
      create policy "storage tests: own folder insert" on storage.objects for insert to authenticated
        with check (bucket_id like 'test-%' and (storage.foldername(name))[1] = (select auth.uid())::text);
      create policy "storage tests: own folder update" on storage.objects for update to authenticated
        using (bucket_id like 'test-%' and (storage.foldername(name))[1] = (select auth.uid())::text)
        with check (bucket_id like 'test-%' and (storage.foldername(name))[1] = (select auth.uid())::text);
      create policy "storage tests: own folder delete" on storage.objects for delete to authenticated
        using (bucket_id like 'test-%' and (storage.foldername(name))[1] = (select auth.uid())::text);
    `);
  });
}

/**
 * Removes the test buckets (objects and files through the API, as the service role) and the
 * test policies, so later suites (database lint, migration fingerprints) see only the product's.
 */
export async function tearDownTestBuckets(): Promise<void> {
  const admin = clientAs(config.serviceRoleKey).storage;
  for (const id of Object.values(buckets)) {
    await admin.emptyBucket(id);
    await admin.deleteBucket(id);
  }
  await withDb((db) =>
    db.query(`
      drop policy if exists "storage tests: own folder select" on storage.objects;
      drop policy if exists "storage tests: own folder insert" on storage.objects;
      drop policy if exists "storage tests: own folder update" on storage.objects;
      drop policy if exists "storage tests: own folder delete" on storage.objects;
    `),
  );
}

export async function objectRow(bucket: string, name: string): Promise<{ owner: string | null; owner_id: string | null; metadata: Record<string, unknown> } | null> {
  return withDb(async (db) => {
    const { rows } = await db.query('select owner, owner_id, metadata from storage.objects where bucket_id = $1 and name = $2', [bucket, name]);
    return rows[0] ?? null;
  });
}

/** Every file under a storage sub-directory (objects, tmp, tus), recursively. */
export async function filesUnder(sub: 'objects' | 'tmp' | 'tus'): Promise<string[]> {
  const dir = path.join(storageDir, sub);
  try {
    const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
