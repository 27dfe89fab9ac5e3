// @supabase/supabase-js, unchanged, against local Auth through the gateway: every flow the app
// uses, with each raw answer checked against Supabase Auth's own OpenAPI description.
import type { AuthChangeEvent } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { config, uniqueEmail, withDb } from '../support/stack.ts';
import { decodeJwt, expectCallsValid, password, recordingClient, waitForMail } from './auth-helpers.ts';

describe('sign-up and sign-in with supabase-js', () => {
  it('signs up with metadata and gets a confirmed user and a session (confirmations off)', async () => {
    const { client, calls } = recordingClient();
    const email = uniqueEmail('auth');
    const { data, error } = await client.auth.signUp({ email, password, options: { data: { first_name: 'Ada' } } });
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      is_anonymous: false,
    });
    expect(data.user?.user_metadata.first_name).toBe('Ada');
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]).toMatchObject({
      provider: 'email',
      user_id: data.user?.id,
      identity_data: { email, sub: data.user?.id },
    });
    expectCallsValid(calls);

    const claims = decodeJwt(data.session!.access_token);
    expect(claims).toMatchObject({
      sub: data.user!.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      aal: 'aal1',
      is_anonymous: false,
      iss: `${config.urls.api}/auth/v1`,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ first_name: 'Ada' }),
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);

    // GoTrue's rows: token columns '' (not NULL), an e-mail identity, a session and a refresh token.
    const rows = await withDb(async (db) => {
      const user = (await db.query('select * from auth.users where id = $1', [data.user!.id])).rows[0];
      const identities = (
        await db.query('select provider, provider_id from auth.identities where user_id = $1', [data.user!.id])
      ).rows;
      const sessions = (await db.query('select id from auth.sessions where user_id = $1', [data.user!.id])).rows;
      const tokens = (
        await db.query('select token, revoked, session_id from auth.refresh_tokens where user_id = $1', [data.user!.id])
      ).rows;
      return { user, identities, sessions, tokens };
    });
    expect(rows.user).toMatchObject({
      confirmation_token: '',
      recovery_token: '',
      email_change_token_new: '',
      email_change: '',
      aud: 'authenticated',
    });
    // bcrypt, at the test stack's cost (GoTrue's 10 elsewhere: auth-rate-limit.test.ts).
    expect(rows.user.encrypted_password).toMatch(/^\$2[aby]\$04\$/);
    expect(rows.identities).toEqual([{ provider: 'email', provider_id: data.user!.id }]);
    expect(rows.sessions).toEqual([{ id: claims.session_id }]);
    expect(rows.tokens).toEqual([
      { token: data.session!.refresh_token, revoked: false, session_id: claims.session_id },
    ]);
  });

  it('signs in with the password, reads the user and refreshes (rotating the token)', async () => {
    const email = uniqueEmail('auth');
    await recordingClient().client.auth.signUp({ email, password });
    const { client, calls } = recordingClient();
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });

    const signIn = await client.auth.signInWithPassword({ email, password });
    expect(signIn.error).toBeNull();
    const first = signIn.data.session!;

    const got = await client.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.email).toBe(email);
    expect(got.data.user?.last_sign_in_at).toBeTruthy();

    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.data.session!.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(decodeJwt(refreshed.data.session!.access_token).session_id).toBe(decodeJwt(first.access_token).session_id);

    const parent = await withDb(
      async (db) =>
        (
          await db.query('select parent, revoked from auth.refresh_tokens where token = $1', [
            refreshed.data.session!.refresh_token,
          ])
        ).rows[0],
    );
    expect(parent).toEqual({ parent: first.refresh_token, revoked: false });

    await expect.poll(() => events).toEqual(expect.arrayContaining(['SIGNED_IN', 'TOKEN_REFRESHED']));
    expectCallsValid(calls);
  });

  it('updates metadata and the password; a password change ends the other sessions', async () => {
    const email = uniqueEmail('auth');
    const { client, calls } = recordingClient();
    await client.auth.signUp({ email, password });
    const other = recordingClient().client;
    const otherSession = (await other.auth.signInWithPassword({ email, password })).data.session!;

    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const withData = await client.auth.updateUser({ data: { first_name: 'Grace', plan: 'growth' } });
    expect(withData.error).toBeNull();
    expect(withData.data.user?.user_metadata).toMatchObject({ first_name: 'Grace', plan: 'growth' });
    const removed = await client.auth.updateUser({ data: { plan: null } });
    expect(removed.data.user?.user_metadata.plan).toBeUndefined();

    const changed = await client.auth.updateUser({ password: 'a-brand-new-password' });
    expect(changed.error).toBeNull();
    await expect.poll(() => events).toContain('USER_UPDATED');

    // This session goes on; the other one is over.
    expect((await client.auth.getUser()).error).toBeNull();
    const otherRefresh = await other.auth.refreshSession({ refresh_token: otherSession.refresh_token });
    expect(otherRefresh.error?.code).toBe('refresh_token_not_found');

    const fresh = recordingClient().client;
    expect((await fresh.auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
    expect((await fresh.auth.signInWithPassword({ email, password: 'a-brand-new-password' })).error).toBeNull();
    expectCallsValid(calls);
  });

  it('signs out locally (only this session) and globally (every session)', async () => {
    const email = uniqueEmail('auth');
    const a = recordingClient();
    await a.client.auth.signUp({ email, password });
    const b = recordingClient();
    const c = recordingClient();
    const bSession = (await b.client.auth.signInWithPassword({ email, password })).data.session!;
    const cSession = (await c.client.auth.signInWithPassword({ email, password })).data.session!;

    const events: AuthChangeEvent[] = [];
    b.client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    expect((await b.client.auth.signOut({ scope: 'local' })).error).toBeNull();
    await expect.poll(() => events).toContain('SIGNED_OUT');
    // b's refresh token is gone, c and a still work.
    expect(
      (await recordingClient().client.auth.refreshSession({ refresh_token: bSession.refresh_token })).error?.code,
    ).toBe('refresh_token_not_found');
    expect((await a.client.auth.getUser()).error).toBeNull();

    expect((await a.client.auth.signOut({ scope: 'global' })).error).toBeNull();
    const cRefresh = await recordingClient().client.auth.refreshSession({ refresh_token: cSession.refresh_token });
    expect(cRefresh.error?.code).toBe('refresh_token_not_found');
    // c's access token still verifies, but its session is gone.
    const cUser = await recordingClient().client.auth.getUser(cSession.access_token);
    expect(cUser.error?.name).toBe('AuthSessionMissingError');
    expectCallsValid([...a.calls, ...b.calls, ...c.calls]);
  });
});

describe('password recovery with supabase-js', () => {
  it('mails a reset link, redeems its token hash, sets a new password', async () => {
    const email = uniqueEmail('recover');
    const { client, calls } = recordingClient();
    await client.auth.signUp({ email, password, options: { data: { first_name: 'Ada' } } });

    const reset = await client.auth.resetPasswordForEmail(email, { redirectTo: `${config.urls.web}/reset-password` });
    expect(reset.error).toBeNull();
    expect(reset.data).toEqual({});

    const mail = await waitForMail(email, 'Reset your Castloop password');
    expect(mail.from).toEqual([{ address: 'no-reply@castloop.local', name: 'Castloop' }]);
    expect(mail.html).toContain(email);
    const link = /href="([^"]+)"/.exec(mail.html)![1].replaceAll('&amp;', '&');
    expect(link.startsWith(`${config.urls.web}/reset-password?token=`)).toBe(true);
    const tokenHash = new URL(link).searchParams.get('token')!;
    expect(tokenHash).toMatch(/^[0-9a-f]{56}$/);
    const stored = await withDb(
      async (db) =>
        (await db.query('select recovery_token, recovery_sent_at from auth.users where email = $1', [email])).rows[0],
    );
    expect(stored.recovery_token).toBe(tokenHash);
    expect(stored.recovery_sent_at).toBeTruthy();

    const recovery = recordingClient();
    const events: AuthChangeEvent[] = [];
    recovery.client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const verified = await recovery.client.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect(decodeJwt(verified.data.session!.access_token).amr).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) },
    ]);
    await expect.poll(() => events).toContain('PASSWORD_RECOVERY');

    // The token is single-use.
    const again = await recordingClient().client.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(again.error?.code).toBe('otp_expired');

    expect((await recovery.client.auth.updateUser({ password: 'recovered-password' })).error).toBeNull();
    const signIn = await recordingClient().client.auth.signInWithPassword({ email, password: 'recovered-password' });
    expect(signIn.error).toBeNull();
    expectCallsValid([...calls, ...recovery.calls]);
  });

  it('answers {} for an unknown address and sends nothing', async () => {
    const { client, calls } = recordingClient();
    const email = uniqueEmail('nobody');
    const reset = await client.auth.resetPasswordForEmail(email);
    expect(reset).toEqual({ data: {}, error: null });
    await expect(waitForMail(email, undefined, 500)).rejects.toThrow(/no e-mail/);
    expectCallsValid(calls);
  });

  it('redeems the 6-digit code with the e-mail address as well', async () => {
    const email = uniqueEmail('otp');
    const { client, calls } = recordingClient();
    await client.auth.signUp({ email, password });
    await client.auth.signOut();
    expect((await client.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const mail = await waitForMail(email, 'Your Castloop sign-in link');
    const link = /href="([^"]+)"/.exec(mail.html)![1].replaceAll('&amp;', '&');
    expect(link.startsWith(`${config.urls.api}/auth/v1/verify?token=`)).toBe(true);
    expect(new URL(link).searchParams.get('type')).toBe('magiclink');
    // The OTP is not in this template, so take it from a generated link instead.
    const admin = recordingClient('service');
    const generated = await admin.client.auth.admin.generateLink({ type: 'magiclink', email });
    const otp = generated.data.properties!.email_otp;
    expect(otp).toMatch(/^\d{6}$/);
    const verified = await client.auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(verified.error).toBeNull();
    expect(decodeJwt(verified.data.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);
    expectCallsValid([...calls, ...admin.calls]);
  });
});
