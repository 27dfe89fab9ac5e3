// The admin API through supabase-js with the service_role key: users, paging, generated links.
import { describe, expect, it } from 'vitest';
import { config, uniqueEmail, withDb } from '../support/stack.ts';
import {
  authFetch,
  decodeJwt,
  expectAuthError,
  expectCallsValid,
  expectValid,
  password,
  recordingClient,
  sessionSchema,
  userSchema,
} from './auth-helpers.ts';

describe('admin users with supabase-js', () => {
  it('creates, reads, updates (app_metadata) and deletes a user', async () => {
    const { client, calls } = recordingClient('service');
    const email = uniqueEmail('admin');
    const created = await client.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { first_name: 'Test' },
      app_metadata: { role: 'admin' },
    });
    expect(created.error).toBeNull();
    const user = created.data.user!;
    expectValid(userSchema(), user);
    expect(user).toMatchObject({ email, app_metadata: { provider: 'email', providers: ['email'], role: 'admin' } });
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.user_metadata.first_name).toBe('Test');

    const fetched = await client.auth.admin.getUserById(user.id);
    expect(fetched.data.user?.id).toBe(user.id);

    const updated = await client.auth.admin.updateUserById(user.id, {
      app_metadata: { tier: 'growth', role: null },
      user_metadata: { last_name: 'User' },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'], tier: 'growth' });
    expect(updated.data.user?.user_metadata).toMatchObject({ first_name: 'Test', last_name: 'User' });

    // The new app_metadata is in the next access token.
    const signIn = await recordingClient().client.auth.signInWithPassword({ email, password });
    expect(decodeJwt(signIn.data.session!.access_token).app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
      tier: 'growth',
    });

    // (E-mail changes are refused by a database trigger: tests/functions/hardening.test.ts.)
    const renamed = await client.auth.admin.updateUserById(user.id, { password: 'another-password-1' });
    expect(renamed.data.user?.email).toBe(email);
    expect(
      (await recordingClient().client.auth.signInWithPassword({ email, password: 'another-password-1' })).error,
    ).toBeNull();

    const deleted = await client.auth.admin.deleteUser(user.id);
    expect(deleted.error).toBeNull();
    const gone = await client.auth.admin.getUserById(user.id);
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.code).toBe('user_not_found');
    expect(
      await withDb(
        async (db) =>
          (await db.query('select count(*)::int as n from auth.identities where user_id = $1', [user.id])).rows[0].n,
      ),
    ).toBe(0);
    expectCallsValid(calls);
  });

  it('lists users page by page with X-Total-Count and Link headers', async () => {
    const { client, calls } = recordingClient('service');
    for (let i = 0; i < 3; i++) await client.auth.admin.createUser({ email: uniqueEmail('list'), password });
    const total = await withDb(async (db) => (await db.query('select count(*)::int as n from auth.users')).rows[0].n);

    const listed = await client.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(listed.error).toBeNull();
    if (!('total' in listed.data)) throw new Error('listUsers failed');
    const page1 = { data: listed.data };
    expect(page1.data.users).toHaveLength(2);
    expect(page1.data.total).toBe(total);
    expect(page1.data.nextPage).toBe(2);
    // supabase-js parses only the first digit of the page number in the Link header.
    expect(page1.data.lastPage).toBe(Number(String(Math.ceil(total / 2))[0]));
    for (const user of page1.data.users) expectValid(userSchema(), user);

    const raw = await authFetch('GET', '/admin/users?page=2&per_page=2', {
      apikey: config.serviceRoleKey,
      bearer: config.serviceRoleKey,
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-total-count')).toBe(String(total));
    const link = raw.headers.get('link')!;
    for (const part of link.split(', '))
      expect(part).toMatch(/^<\/admin\/users\?page=\d+&per_page=2>; rel="(next|last)"$/);
    expect(raw.body?.aud).toBe('authenticated');
    expect((raw.body?.users as unknown[]).length).toBe(Math.min(2, total - 2));
    const ids1 = page1.data.users.map((user) => user.id);
    for (const user of raw.body?.users as Array<{ id: string }>) expect(ids1).not.toContain(user.id);
    expectCallsValid(calls);
  });

  it('refuses a duplicate e-mail with 422 email_exists', async () => {
    const { client } = recordingClient('service');
    const email = uniqueEmail('dup');
    await client.auth.admin.createUser({ email, password });
    const again = await authFetch('POST', '/admin/users', {
      apikey: config.serviceRoleKey,
      bearer: config.serviceRoleKey,
      body: { email, password },
    });
    expectAuthError(again, 422, 'email_exists');
    const other = await client.auth.admin.createUser({ email: uniqueEmail('dup'), password });
    const update = await authFetch('PUT', `/admin/users/${other.data.user!.id}`, {
      apikey: config.serviceRoleKey,
      bearer: config.serviceRoleKey,
      body: { email },
    });
    expectAuthError(update, 422, 'email_exists');
  });

  it('refuses the admin API to anon and user tokens with 403 not_admin', async () => {
    const anon = await authFetch('GET', '/admin/users', { bearer: config.anonKey });
    expectAuthError(anon, 403, 'not_admin');
    const email = uniqueEmail('notadmin');
    const session = (await recordingClient().client.auth.signUp({ email, password })).data.session!;
    const asUser = await authFetch('POST', '/admin/users', {
      bearer: session.access_token,
      body: { email: uniqueEmail('x'), password },
    });
    expectAuthError(asUser, 403, 'not_admin');
    const none = await authFetch('GET', '/admin/users');
    expectAuthError(none, 401, 'no_authorization');
  });
});

describe('admin.generateLink', () => {
  it('generates a recovery link whose hashed token verifies, and whose action link redirects with a session', async () => {
    const { client, calls } = recordingClient('service');
    const email = uniqueEmail('link');
    await client.auth.admin.createUser({ email, password, email_confirm: true });
    const redirectTo = `${config.urls.web}/reset-password`;
    const generated = await client.auth.admin.generateLink({ type: 'recovery', email, options: { redirectTo } });
    expect(generated.error).toBeNull();
    const data = { user: generated.data.user!, properties: generated.data.properties! };
    expect(data.user.email).toBe(email);
    expect(data.properties).toMatchObject({ verification_type: 'recovery', redirect_to: redirectTo });
    expect(data.properties.hashed_token).toMatch(/^[0-9a-f]{56}$/);
    expect(data.properties.email_otp).toMatch(/^\d{6}$/);
    const action = new URL(data.properties.action_link);
    expect(`${action.origin}${action.pathname}`).toBe(`${config.urls.api}/auth/v1/verify`);
    expect(action.searchParams.get('token')).toBe(data.properties.hashed_token);
    expect(action.searchParams.get('type')).toBe('recovery');
    expect(action.searchParams.get('redirect_to')).toBe(redirectTo);

    // Clicking the link (no apikey: the gateway leaves /verify open) answers 303 with the session.
    const clicked = await fetch(data.properties.action_link, { redirect: 'manual' });
    expect(clicked.status).toBe(303);
    expect(clicked.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    const location = new URL(clicked.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('refresh_token')).toMatch(/^[a-z0-9]{12}$/);
    expect(Number(fragment.get('expires_in'))).toBe(3600);
    expect(decodeJwt(fragment.get('access_token')!).email).toBe(email);

    // Used once, the same link now redirects with GoTrue's error fragment.
    const reused = await fetch(data.properties.action_link, { redirect: 'manual' });
    expect(reused.status).toBe(303);
    const errorFragment = new URLSearchParams(new URL(reused.headers.get('location')!).hash.slice(1));
    expect(Object.fromEntries(errorFragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    expectCallsValid(calls);
  });

  it('generates a magic link that verifies with verifyOtp({token_hash, type: "magiclink"})', async () => {
    const admin = recordingClient('service');
    const email = uniqueEmail('magic');
    await admin.client.auth.admin.createUser({ email, password, email_confirm: true });
    const generated = await admin.client.auth.admin.generateLink({ type: 'magiclink', email });
    const data = { properties: generated.data.properties! };
    expect(data.properties.verification_type).toBe('magiclink');
    expect(data.properties.redirect_to).toBe(config.urls.web);
    const user = recordingClient();
    const verified = await user.client.auth.verifyOtp({ token_hash: data.properties.hashed_token, type: 'magiclink' });
    expect(verified.error).toBeNull();
    expectValid(sessionSchema(), { ...verified.data.session });
    expect(decodeJwt(verified.data.session!.access_token).amr).toEqual([
      { method: 'magiclink', timestamp: expect.any(Number) },
    ]);
    expectCallsValid([...admin.calls, ...user.calls]);
  });

  it('answers 404 user_not_found for a recovery link to an unknown address', async () => {
    const res = await authFetch('POST', '/admin/generate_link', {
      apikey: config.serviceRoleKey,
      bearer: config.serviceRoleKey,
      body: { type: 'recovery', email: uniqueEmail('ghost') },
    });
    expectAuthError(res, 404, 'user_not_found');
  });
});
