// Asymmetric session keys, as hosted Supabase: local Auth signs sessions with ES256 (its key id in
// the JWT header) and publishes the public keys at /auth/v1/.well-known/jwks.json; PostgREST,
// Storage, the functions host and the api function verify from them; the legacy HS256 secret
// still verifies the anon and service keys and older tokens; supabase-js getClaims() works.
import { createLocalJWKSet, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, uniqueEmail } from '../support/stack.ts';
import { decodeJwt, password, recordingClient } from './auth-helpers.ts';

const jwksUrl = `${config.urls.api}/auth/v1/.well-known/jwks.json`;

interface Session {
  userId: string;
  token: string;
}

async function signUp(): Promise<Session> {
  const { data, error } = await recordingClient().client.auth.signUp({ email: uniqueEmail('jwks'), password });
  if (error || !data.session) throw new Error(`signup failed: ${error?.message}`);
  return { userId: data.user!.id, token: data.session.access_token };
}

/** What each part of the stack answers for a request carrying `token` as the Bearer. */
const parts = {
  postgrest: (token: string) =>
    fetch(`${config.urls.api}/rest/v1/rpc/current_account`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    }),
  storage: (token: string) =>
    fetch(`${config.urls.api}/storage/v1/bucket`, { headers: { apikey: config.anonKey, authorization: `Bearer ${token}` } }),
  functionsHost: (token: string) =>
    fetch(`${config.urls.api}/functions/v1/echo-claims`, { headers: { authorization: `Bearer ${token}` } }),
  api: (token: string) => fetch(`${config.urls.api}/functions/v1/api/auth/user`, { headers: { authorization: `Bearer ${token}` } }),
};

/** The same header and claims, the signature's bytes changed. */
function withTamperedSignature(token: string): string {
  const [header, payload, signature] = token.split('.');
  const bytes = Buffer.from(signature, 'base64url');
  bytes[10] ^= 0x01;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

describe('GET /auth/v1/.well-known/jwks.json', () => {
  it('lists the public ES256 key as GoTrue does, without an apikey, and never the secret', async () => {
    const res = await fetch(jwksUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys.length).toBeGreaterThan(0);
    for (const key of body.keys) {
      expect(key).toEqual({
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        kid: expect.any(String),
        x: expect.stringMatching(/^[\w-]{43}$/),
        y: expect.stringMatching(/^[\w-]{43}$/),
        use: 'sig',
        key_ops: ['verify'],
        ext: true,
      });
    }
  });
});

describe('sessions signed with the asymmetric key', () => {
  let session: Session;
  let kid: string;

  beforeAll(async () => {
    session = await signUp();
    kid = decodeProtectedHeader(session.token).kid!;
  });

  it('carry ES256 and a key id of the JWKS, and verify against it', async () => {
    expect(decodeProtectedHeader(session.token)).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
    const jwks = await (await fetch(jwksUrl)).json();
    expect(jwks.keys.map((key: { kid: string }) => key.kid)).toContain(kid);
    const { payload } = await jwtVerify(session.token, createLocalJWKSet(jwks));
    expect(payload).toMatchObject({ sub: session.userId, role: 'authenticated', aud: 'authenticated' });
  });

  it('are accepted by PostgREST, Storage, the functions host and /api as that user', async () => {
    const rest = await parts.postgrest(session.token);
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ id: session.userId });
    expect((await parts.storage(session.token)).status).toBe(200);
    const echo = await parts.functionsHost(session.token);
    expect(echo.status).toBe(200);
    expect(await echo.json()).toMatchObject({ role: 'authenticated' });
    const me = await parts.api(session.token);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: session.userId });
  });

  it('are refused by every part when the signature is tampered with', async () => {
    const tampered = withTamperedSignature(session.token);
    expect((await parts.postgrest(tampered)).status).toBe(401);
    const storage = await parts.storage(tampered);
    expect(storage.status).toBe(400);
    expect(await storage.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
    expect(await (await parts.functionsHost(tampered)).json()).toEqual({ code: 401, message: 'Invalid JWT' });
    const api = await parts.api(tampered);
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ message: 'Unauthorized' });
  });

  it('are refused by every part when signed by a key the JWKS does not list', async () => {
    const stranger = await generateKeyPair('ES256');
    for (const foreignKid of [kid, 'not-a-published-key']) {
      const forged = await new SignJWT(decodeJwt(session.token))
        .setProtectedHeader({ alg: 'ES256', kid: foreignKid, typ: 'JWT' })
        .sign(stranger.privateKey);
      expect((await parts.postgrest(forged)).status).toBe(401);
      expect((await parts.storage(forged)).status).toBe(400);
      expect((await parts.functionsHost(forged)).status).toBe(401);
      expect((await parts.api(forged)).status).toBe(401);
    }
  });

  it('and the legacy HS256 secret still verifies the same claims (older sessions, the anon key)', async () => {
    const legacy = await new SignJWT(decodeJwt(session.token))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(config.jwtSecret));
    expect((await parts.postgrest(legacy)).status).toBe(200);
    expect((await parts.storage(legacy)).status).toBe(200);
    expect((await parts.functionsHost(legacy)).status).toBe(200);
    // The api function asks Auth about HS256 tokens (as getClaims falls back to getUser).
    expect(await (await parts.api(legacy)).json()).toMatchObject({ id: session.userId });
    const anon = await fetch(`${config.urls.api}/rest/v1/plans?select=id&limit=1`, { headers: { apikey: config.anonKey } });
    expect(anon.status).toBe(200);
  });
});

describe('supabase-js auth.getClaims()', () => {
  it('verifies the session locally from the JWKS: no request for the user', async () => {
    const { client, calls } = recordingClient();
    const { data: signedUp } = await client.auth.signUp({ email: uniqueEmail('claims'), password });
    calls.length = 0;
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ sub: signedUp.user!.id, role: 'authenticated', email: signedUp.user!.email });
    expect(data?.header).toMatchObject({ alg: 'ES256', kid: decodeProtectedHeader(signedUp.session!.access_token).kid });
    expect(calls.map((call) => call.path).filter((path) => path !== '/.well-known/jwks.json')).toEqual([]);
  });

  it('returns an error for a tampered token', async () => {
    const { token } = await signUp();
    const { data, error } = await recordingClient().client.auth.getClaims(withTamperedSignature(token));
    expect(data).toBeNull();
    expect(error?.message).toBe('Invalid JWT signature');
  });
});
