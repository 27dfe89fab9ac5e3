// Access tokens from local Auth are accepted by the rest of the stack as that user: PostgREST
// applies RLS with auth.uid(), the functions host verifies them; expired or tampered ones fail.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, uniqueEmail, withDb } from '../support/stack.ts';
import { decodeJwt, password, recordingClient } from './auth-helpers.ts';

const table = 'auth_contract_probe';

function rest(path: string, bearer: string): Promise<Response> {
  return fetch(`${config.urls.api}/rest/v1/${path}`, {
    headers: { apikey: config.anonKey, authorization: `Bearer ${bearer}` },
  });
}

async function session(): Promise<{ id: string; token: string }> {
  const { data, error } = await recordingClient().client.auth.signUp({ email: uniqueEmail('jwt'), password });
  if (error || !data.session) throw new Error(`signup failed: ${error?.message}`);
  return { id: data.user!.id, token: data.session.access_token };
}

async function expiredAndTampered(token: string): Promise<{ expired: string; tampered: string }> {
  const claims = decodeJwt(token);
  const expired = await new SignJWT({
    ...claims,
    iat: Math.floor(Date.now() / 1000) - 7200,
    exp: Math.floor(Date.now() / 1000) - 3600,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(config.jwtSecret));
  // Same signature, different payload: claims to be someone else.
  const [header, , signature] = token.split('.');
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString(
    'base64url',
  );
  return { expired, tampered: `${header}.${forged}.${signature}` };
}

describe('local Auth tokens through PostgREST', () => {
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    alice = await session();
    bob = await session();
    await withDb(async (db) => {
      await db.query(`
        create table public.${table} (id int primary key, owner uuid not null, body text);
        alter table public.${table} enable row level security;
        create policy "owners read their rows" on public.${table} for select to authenticated using (owner = (select auth.uid()));
        grant select on public.${table} to authenticated;
        insert into public.${table} values (1, '${alice.id}', 'alice'), (2, '${bob.id}', 'bob');
        notify pgrst, 'reload schema';
      `);
    });
    for (let i = 0; i < 100; i++) {
      if ((await rest(`${table}?select=id`, alice.token)).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('PostgREST did not see the probe table');
  });

  afterAll(() => withDb((db) => db.query(`drop table if exists public.${table}; notify pgrst, 'reload schema';`)));

  it('reads as the signed-in user: RLS with auth.uid() shows only their rows', async () => {
    const asAlice = await rest(`${table}?select=id,body&order=id`, alice.token);
    expect(asAlice.status).toBe(200);
    expect(await asAlice.json()).toEqual([{ id: 1, body: 'alice' }]);
    const asBob = await rest(`${table}?select=id,body&order=id`, bob.token);
    expect(await asBob.json()).toEqual([{ id: 2, body: 'bob' }]);
  });

  it('works through supabase-js with the session of signInWithPassword', async () => {
    const { client } = recordingClient();
    const email = uniqueEmail('jwt');
    await client.auth.signUp({ email, password });
    const { data, error } = await client.from(table).select('id');
    expect(error).toBeNull();
    expect(data).toEqual([]); // a new user owns no rows
  });

  it('refuses an expired or tampered token with 401', async () => {
    const { expired, tampered } = await expiredAndTampered(alice.token);
    expect((await rest(table, expired)).status).toBe(401);
    expect((await rest(table, tampered)).status).toBe(401);
  });
});

describe('local Auth tokens in the functions host (verify_jwt)', () => {
  // `echo-claims` is the test fixture function with verify_jwt left at Supabase's default (true).
  const fn = (bearer: string) =>
    fetch(`${config.urls.api}/functions/v1/echo-claims`, { headers: { authorization: `Bearer ${bearer}` } });

  it('passes a valid user token through', async () => {
    const alice = await session();
    const res = await fn(alice.token);
    expect(res.status).toBe(200);
    expect((await res.json()).role).toBe('authenticated');
  });

  it('refuses an expired or tampered token with 401', async () => {
    const alice = await session();
    const { expired, tampered } = await expiredAndTampered(alice.token);
    expect((await fn(expired)).status).toBe(401);
    expect((await fn(tampered)).status).toBe(401);
  });
});
