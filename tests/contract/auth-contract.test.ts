// The Auth contract itself is strict: a body GoTrue would never send fails it. Each case takes a
// real answer of local Auth and removes or adds what GoTrue's response structs always or never
// carry, so a contract that accepted almost anything (no required fields, `oneOf` read as
// `anyOf`) fails here.
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/stack.ts';
import { authFetch, password, validateAnswer } from './auth-helpers.ts';

type Json = Record<string, unknown>;

function without(body: Json, field: string): Json {
  const { [field]: _dropped, ...rest } = body;
  return rest;
}

describe('gotrue-contract.yaml', () => {
  it('requires what every session and user carries, and tells a session from a user', async () => {
    const signup = await authFetch('POST', '/signup', { body: { email: uniqueEmail('contract'), password } });
    expect(signup.status).toBe(200);
    const session = signup.body as Json;
    const user = session.user as Json;
    expect(validateAnswer('POST', '/signup', 200, session)).toEqual([]);
    expect(validateAnswer('POST', '/signup', 200, user)).toEqual([]);
    expect(validateAnswer('GET', '/user', 200, user)).toEqual([]);

    for (const field of ['access_token', 'refresh_token', 'expires_at', 'user']) {
      expect(validateAnswer('POST', '/token', 200, without(session, field)), field).not.toEqual([]);
    }
    for (const field of ['id', 'aud', 'app_metadata', 'identities', 'is_anonymous']) {
      expect(validateAnswer('GET', '/user', 200, without(user, field)), field).not.toEqual([]);
    }
    const identity = (user.identities as Json[])[0];
    expect(validateAnswer('GET', '/user', 200, { ...user, identities: [without(identity, 'provider')] })).not.toEqual(
      [],
    );
    // A real oneOf: a body that is both a session and a user is neither.
    expect(validateAnswer('POST', '/signup', 200, { ...user, ...session })).not.toEqual([]);
  });
});
