// GoTrue's error answers (status, code, X-Supabase-Api-Version header, body shape), input
// limits, refresh-token reuse, and redirect_to checks.
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, uniqueEmail, withDb } from '../support/stack.ts';
import {
  authFetch,
  decodeJwt,
  errorSchema,
  expectAuthError,
  expectValid,
  password,
  recordingClient,
  sessionSchema,
  validateAnswer,
  versionHeader,
} from './auth-helpers.ts';

const admin = { apikey: config.serviceRoleKey, bearer: config.serviceRoleKey };

async function signedUp(): Promise<{ email: string; access: string; refresh: string; id: string }> {
  const email = uniqueEmail('err');
  const res = await authFetch('POST', '/signup', { body: { email, password } });
  expect(res.status).toBe(200);
  expectValid(sessionSchema(), res.body);
  const user = res.body!.user as { id: string };
  return { email, access: res.body!.access_token as string, refresh: res.body!.refresh_token as string, id: user.id };
}

describe('general endpoints', () => {
  it('GET /health and GET /settings answer as the OpenAPI says, with the version header', async () => {
    for (const path of ['/health', '/settings']) {
      const res = await authFetch('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get(versionHeader)).toBe('2024-01-01');
      expect(validateAnswer('GET', path, 200, res.body)).toEqual([]);
    }
    const settings = await authFetch('GET', '/settings');
    expect(settings.body).toMatchObject({ disable_signup: false, mailer_autoconfirm: true, external: { email: true } });
  });

  it('answers unknown paths with a JSON 404, not a 500', async () => {
    const res = await authFetch('GET', '/no/such/route');
    expectAuthError(res, 404, 'not_found');
  });
});

describe('GoTrue error codes', () => {
  let user: Awaited<ReturnType<typeof signedUp>>;
  beforeAll(async () => {
    user = await signedUp();
  });

  it('400 invalid_credentials for a wrong password or an unknown e-mail', async () => {
    const wrong = await authFetch('POST', '/token?grant_type=password', {
      body: { email: user.email, password: 'wrong-password' },
    });
    expectAuthError(wrong, 400, 'invalid_credentials');
    expect(wrong.body?.message).toBe('Invalid login credentials');
    const unknown = await authFetch('POST', '/token?grant_type=password', {
      body: { email: uniqueEmail('nobody'), password },
    });
    expectAuthError(unknown, 400, 'invalid_credentials');
    // supabase-js turns it into an AuthApiError with the code.
    const viaClient = await recordingClient().client.auth.signInWithPassword({
      email: user.email,
      password: 'wrong-password',
    });
    expect(viaClient.error).toMatchObject({
      name: 'AuthApiError',
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('422 user_already_exists for a second signup with the same e-mail', async () => {
    const res = await authFetch('POST', '/signup', { body: { email: user.email.toUpperCase(), password } });
    expectAuthError(res, 422, 'user_already_exists');
    expect(res.body?.message).toBe('User already registered');
  });

  it('422 weak_password with reasons on signup and on update', async () => {
    const res = await authFetch('POST', '/signup', { body: { email: uniqueEmail('weak'), password: 'short' } });
    expectAuthError(res, 422, 'weak_password');
    expect(res.body?.weak_password).toEqual({ reasons: ['length'] });
    expect(res.body?.message).toBe('Password should be at least 8 characters.');
    const update = await authFetch('PUT', '/user', { bearer: user.access, body: { password: '1234567' } });
    expectAuthError(update, 422, 'weak_password');
    const viaClient = await recordingClient().client.auth.signUp({ email: uniqueEmail('weak'), password: 'short' });
    expect(viaClient.error).toMatchObject({
      name: 'AuthWeakPasswordError',
      code: 'weak_password',
      reasons: ['length'],
    });
  });

  it('422 same_password when the new password is the current one', async () => {
    const res = await authFetch('PUT', '/user', { bearer: user.access, body: { password } });
    expectAuthError(res, 422, 'same_password');
  });

  it('400 refresh_token_not_found for an unknown refresh token', async () => {
    const res = await authFetch('POST', '/token?grant_type=refresh_token', { body: { refresh_token: 'aaaaaaaaaaaa' } });
    expectAuthError(res, 400, 'refresh_token_not_found');
  });

  it('401 no_authorization without a bearer token', async () => {
    expectAuthError(await authFetch('GET', '/user'), 401, 'no_authorization');
    expectAuthError(await authFetch('PUT', '/user', { body: {} }), 401, 'no_authorization');
    expectAuthError(await authFetch('POST', '/logout'), 401, 'no_authorization');
  });

  it('403 bad_jwt for a garbage, tampered, expired or foreign-key token', async () => {
    expectAuthError(await authFetch('GET', '/user', { bearer: 'not-a-jwt' }), 403, 'bad_jwt');
    const tampered = user.access.slice(0, -4) + (user.access.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expectAuthError(await authFetch('GET', '/user', { bearer: tampered }), 403, 'bad_jwt');
    const claims = decodeJwt(user.access);
    const secret = new TextEncoder().encode(config.jwtSecret);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    const res = await authFetch('GET', '/user', { bearer: expired });
    expectAuthError(res, 403, 'bad_jwt');
    expect(res.body?.message).toMatch(/expired/);
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-of-at-least-32-characters!'));
    expectAuthError(await authFetch('GET', '/user', { bearer: foreign }), 403, 'bad_jwt');
    expectAuthError(await authFetch('GET', '/user', { bearer: config.anonKey }), 403, 'bad_jwt');
  });

  it('403 session_not_found for a token whose session was deleted', async () => {
    const other = await signedUp();
    expect((await authFetch('GET', '/user', { bearer: other.access })).status).toBe(200);
    await withDb((db) => db.query('delete from auth.sessions where id = $1', [decodeJwt(other.access).session_id]));
    const res = await authFetch('GET', '/user', { bearer: other.access });
    expectAuthError(res, 403, 'session_not_found');
    // Signing out of an ended session is harmless.
    expect((await authFetch('POST', '/logout?scope=local', { bearer: other.access })).status).toBe(204);
  });

  it('403 not_admin when a user writes app_metadata', async () => {
    const res = await authFetch('PUT', '/user', { bearer: user.access, body: { app_metadata: { role: 'admin' } } });
    expectAuthError(res, 403, 'not_admin');
    const check = await authFetch('GET', '/user', { bearer: user.access });
    expect(check.body?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
  });

  it('answers the legacy shape (code number, error_code, msg) to clients without the version header', async () => {
    const res = await authFetch('POST', '/token?grant_type=password', {
      body: { email: user.email, password: 'nope-nope' },
      version: null,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get(versionHeader)).toBe('2024-01-01');
    expect(res.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    expectValid(errorSchema(false), res.body);
  });
});

describe('bad input never causes a 500', () => {
  it('malformed JSON, a non-object body and wrong field types are 400 bad_json', async () => {
    expectAuthError(await authFetch('POST', '/signup', { body: '{"email": ' }), 400, 'bad_json');
    expectAuthError(await authFetch('POST', '/signup', { body: '[1, 2]' }), 400, 'bad_json');
    expectAuthError(await authFetch('POST', '/signup', { body: { email: 42, password } }), 400, 'bad_json');
    expectAuthError(
      await authFetch('POST', '/token?grant_type=password', { body: { email: ['a'], password } }),
      400,
      'bad_json',
    );
    expectAuthError(
      await authFetch('POST', '/signup', { body: { email: uniqueEmail('types'), password, data: 'nope' } }),
      400,
      'bad_json',
    );
  });

  it('missing or invalid fields are validation_failed', async () => {
    expectAuthError(await authFetch('POST', '/signup', { body: {} }), 422, 'validation_failed');
    expectAuthError(await authFetch('POST', '/signup', { body: { password } }), 400, 'validation_failed');
    expectAuthError(
      await authFetch('POST', '/signup', { body: { email: 'not-an-email', password } }),
      400,
      'validation_failed',
    );
    expectAuthError(await authFetch('POST', '/recover', { body: {} }), 400, 'validation_failed');
    expectAuthError(await authFetch('POST', '/token?grant_type=refresh_token', { body: {} }), 400, 'validation_failed');
    expectAuthError(await authFetch('POST', '/token?grant_type=magic', { body: {} }), 400, 'invalid_credentials');
    expectAuthError(await authFetch('POST', '/verify', { body: { type: 'recovery' } }), 400, 'validation_failed');
    expectAuthError(
      await authFetch('POST', '/verify', { body: { type: 'nope', token_hash: 'abc' } }),
      400,
      'validation_failed',
    );
    expectAuthError(
      await authFetch('POST', '/verify', { body: { type: 'recovery', token_hash: 'f'.repeat(56) } }),
      403,
      'otp_expired',
    );
    expectAuthError(await authFetch('POST', '/logout?scope=everything', { bearer: 'x' }), 400, 'validation_failed');
    expectAuthError(await authFetch('GET', '/admin/users/not-a-uuid', admin), 404, 'validation_failed');
    expectAuthError(await authFetch('GET', '/admin/users?page=0', admin), 400, 'validation_failed');
  });

  it('over-long e-mails (255) and passwords (72 bytes) are refused with a clear message', async () => {
    const longEmail = `${'a'.repeat(250)}@example.com`;
    const email = await authFetch('POST', '/signup', { body: { email: longEmail, password } });
    expectAuthError(email, 400, 'validation_failed');
    expect(email.body?.message).toBe('An email address is too long');
    const long = await authFetch('POST', '/signup', { body: { email: uniqueEmail('long'), password: 'é'.repeat(37) } });
    expectAuthError(long, 422, 'validation_failed');
    expect(long.body?.message).toBe('Password cannot be longer than 72 characters');
    expectAuthError(
      await authFetch('POST', '/token?grant_type=password', { body: { email: longEmail, password } }),
      400,
      'invalid_credentials',
    );
    expectAuthError(
      await authFetch('POST', '/token?grant_type=password', {
        body: { email: uniqueEmail('x'), password: 'x'.repeat(500) },
      }),
      400,
      'invalid_credentials',
    );
  });

  it('a body over 1 MB is refused with 400', async () => {
    const res = await authFetch('POST', '/signup', {
      body: JSON.stringify({ email: uniqueEmail('big'), password, data: { blob: 'x'.repeat(1_100_000) } }),
    });
    expectAuthError(res, 400, 'validation_failed');
    expect(res.body?.message).toMatch(/larger than/);
  });

  // GoTrue answers a NUL that Postgres refuses with 500 ("Database error saving new user");
  // locally it is the client's 400 validation_failed, and nothing is written.
  it('a NUL in sign-up data is 400 validation_failed and creates no user', async () => {
    const email = uniqueEmail('nul');
    const res = await authFetch('POST', '/signup', { body: { email, password, data: { first_name: 'Before\u0000after' } } });
    expectAuthError(res, 400, 'validation_failed');
    const users = await withDb(async (db) => (await db.query('select count(*)::int as n from auth.users where email = $1', [email])).rows[0].n);
    expect(users).toBe(0);
  });

  it('a NUL in PUT /user data is 400 validation_failed and leaves the metadata as it was', async () => {
    const user = await signedUp();
    const res = await authFetch('PUT', '/user', { bearer: user.access, body: { data: { first_name: 'Before\u0000after' } } });
    expectAuthError(res, 400, 'validation_failed');
    const metadata = await withDb(
      async (db) => (await db.query('select raw_user_meta_data from auth.users where id = $1', [user.id])).rows[0].raw_user_meta_data,
    );
    expect(metadata).not.toHaveProperty('first_name');
  });

  it('a NUL in the e-mail of a password grant is 400, like any address no account has', async () => {
    const res = await authFetch('POST', '/token?grant_type=password', { body: { email: 'a\u0000b@example.com', password } });
    expectAuthError(res, 400, 'validation_failed');
  });

  it('a lone surrogate in sign-up data becomes U+FFFD, as Go decodes JSON for GoTrue', async () => {
    const email = uniqueEmail('surrogate');
    const res = await authFetch('POST', '/signup', { body: { email, password, data: { first_name: 'Before\ud800after' } } });
    expect(res.status, res.text).toBe(200);
    expect((res.body!.user as { user_metadata: Record<string, unknown> }).user_metadata.first_name).toBe('Before\ufffdafter');
  });
});

describe('refresh token rotation and reuse', () => {
  it('gives the same child back within the reuse interval, and ends the session on later reuse', async () => {
    const user = await signedUp();
    const first = await authFetch('POST', '/token?grant_type=refresh_token', { body: { refresh_token: user.refresh } });
    expect(first.status).toBe(200);
    const child = first.body!.refresh_token as string;
    expect(child).not.toBe(user.refresh);

    const again = await authFetch('POST', '/token?grant_type=refresh_token', { body: { refresh_token: user.refresh } });
    expect(again.status).toBe(200);
    expect(again.body!.refresh_token).toBe(child);
    expectValid(sessionSchema(), again.body);

    // Past refresh_token_reuse_interval (10 s), reuse of the parent is treated as theft.
    await withDb((db) =>
      db.query(`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`, [
        user.refresh,
      ]),
    );
    const stolen = await authFetch('POST', '/token?grant_type=refresh_token', {
      body: { refresh_token: user.refresh },
    });
    expectAuthError(stolen, 400, 'refresh_token_already_used');
    expectAuthError(
      await authFetch('POST', '/token?grant_type=refresh_token', { body: { refresh_token: child } }),
      400,
      'refresh_token_not_found',
    );
    expectAuthError(await authFetch('GET', '/user', { bearer: user.access }), 403, 'session_not_found');
  });
});

describe('redirect_to', () => {
  async function redirectFor(redirectTo: string): Promise<string> {
    const email = uniqueEmail('redir');
    await authFetch('POST', '/admin/users', { ...admin, body: { email, password, email_confirm: true } });
    const res = await authFetch('POST', `/admin/generate_link?redirect_to=${encodeURIComponent(redirectTo)}`, {
      ...admin,
      body: { type: 'magiclink', email },
    });
    expect(res.status).toBe(200);
    return res.body!.redirect_to as string;
  }

  it('keeps targets on the site URL host or in additional_redirect_urls', async () => {
    expect(await redirectFor(`${config.urls.web}/welcome?x=1`)).toBe(`${config.urls.web}/welcome?x=1`);
    expect(await redirectFor('http://127.0.0.1:3000/reset-password')).toBe('http://127.0.0.1:3000/reset-password');
    expect(await redirectFor('http://localhost:3000')).toBe('http://localhost:3000');
  });

  it('falls back to the site URL for anything else (no open redirect)', async () => {
    for (const target of [
      'https://evil.example.com/',
      'http://127.0.0.1.evil.example.com/',
      'http://localhost:3000.evil.example.com',
      'javascript:alert(1)',
      '//evil.example.com',
      'http://localhost:3000/other',
    ]) {
      expect(await redirectFor(target), target).toBe(config.urls.web);
    }
  });

  it('GET /verify with a bad token redirects to the site URL with the error, never off-site', async () => {
    const res = await fetch(
      `${config.urls.api}/auth/v1/verify?token=${'0'.repeat(56)}&type=recovery&redirect_to=${encodeURIComponent('https://evil.example.com/')}`,
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(config.urls.web);
    expect(new URLSearchParams(location.hash.slice(1)).get('error_code')).toBe('otp_expired');
  });
});
