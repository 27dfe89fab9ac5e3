// Where GoTrue's answers were easy to miss: metadata on the admin paths, the routes supabase-js
// calls that Castloop does not use itself (/resend, /invite, /reauthenticate, email-change
// links), and the features Castloop leaves off, answered with GoTrue's own errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, uniqueEmail, withDb } from '../support/stack.ts';
import {
  authFetch,
  expectAuthError,
  password,
  recordingClient,
  useAuthInstance,
  versionHeader,
  waitForMail,
} from './auth-helpers.ts';

async function signedIn(): Promise<{
  email: string;
  accessToken: string;
  client: ReturnType<typeof recordingClient>['client'];
}> {
  const email = uniqueEmail('upstream');
  const { client } = recordingClient();
  const { data, error } = await client.auth.signUp({ email, password });
  expect(error).toBeNull();
  return { email, accessToken: data.session!.access_token, client };
}

// Castloop's database refuses e-mail changes made through Auth (operators change addresses,
// tests/db/account-guards.test.ts); the e-mail change flows below are Auth's own behaviour, so
// they run with that guard off.
function withoutEmailChangeGuard() {
  const toggle = (action: 'disable' | 'enable') =>
    withDb((db) => db.query(`alter table auth.users ${action} trigger refuse_email_change`), config.urls.adminDb);
  beforeAll(() => toggle('disable'));
  afterAll(() => toggle('enable'));
}

describe('user_metadata on the admin paths', () => {
  it('createUser and updateUserById keep exactly the metadata given (confirming adds email_verified)', async () => {
    const admin = recordingClient('service').client.auth.admin;
    const plain = await admin.createUser({
      email: uniqueEmail('meta'),
      password,
      user_metadata: { first_name: 'Ada' },
    });
    expect(plain.error).toBeNull();
    expect(plain.data.user!.user_metadata).toEqual({ first_name: 'Ada' });

    const confirmed = await admin.createUser({
      email: uniqueEmail('meta'),
      password,
      email_confirm: true,
      user_metadata: { first_name: 'Ada' },
    });
    expect(confirmed.data.user!.user_metadata).toEqual({ first_name: 'Ada', email_verified: true });

    const updated = await admin.updateUserById(plain.data.user!.id, { user_metadata: { last_name: 'Lovelace' } });
    expect(updated.data.user!.user_metadata).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('generateLink for a new address stores the given data as is; sign-up merges the identity', async () => {
    const admin = recordingClient('service').client.auth.admin;
    const link = await admin.generateLink({
      type: 'signup',
      email: uniqueEmail('link'),
      password,
      options: { data: { plan: 'growth' } },
    });
    expect(link.error).toBeNull();
    expect(link.data.user!.user_metadata).toEqual({ plan: 'growth' });

    const email = uniqueEmail('signup');
    const signup = await recordingClient().client.auth.signUp({
      email,
      password,
      options: { data: { plan: 'growth' } },
    });
    const user = signup.data.user!;
    expect(user.user_metadata).toEqual({
      plan: 'growth',
      sub: user.id,
      email,
      email_verified: true,
      phone_verified: false,
    });
  });
});

describe('routes GoTrue serves that supabase-js calls', () => {
  it('POST /resend answers 200 {} (no mail for a confirmed user) and checks the type', async () => {
    const { email } = await signedIn();
    const { client } = recordingClient();
    expect(await client.auth.resend({ type: 'signup', email })).toMatchObject({ error: null });
    const raw = await authFetch('POST', '/resend', { body: { type: 'signup', email } });
    expect({ status: raw.status, body: raw.body }).toEqual({ status: 200, body: {} });
    const bad = await authFetch('POST', '/resend', { body: { type: 'recovery', email } });
    expectAuthError(bad, 400, 'validation_failed');
    expect(bad.body?.message).toBe('Missing one of these types: signup, email_change, sms, phone_change');
  });

  it('POST /invite (inviteUserByEmail) creates the user and mails a link that signs them in', async () => {
    const email = uniqueEmail('invite');
    const admin = recordingClient('service').client.auth.admin;
    const invited = await admin.inviteUserByEmail(email, { data: { team: 'castloop' } });
    expect(invited.error).toBeNull();
    expect(invited.data.user).toMatchObject({ email, user_metadata: { team: 'castloop' } });
    expect(invited.data.user!.invited_at).toBeTruthy();
    const mail = await waitForMail(email);
    const href = /href="([^"]+)"/.exec(mail.html)![1].replaceAll('&amp;', '&');
    const link = new URL(href);
    expect(link.searchParams.get('type')).toBe('invite');
    const verified = await recordingClient().client.auth.verifyOtp({
      type: 'invite',
      token_hash: link.searchParams.get('token')!,
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user!.email_confirmed_at).toBeTruthy();

    const again = await admin.inviteUserByEmail(email);
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('GET /reauthenticate mails a one-time code to the signed-in user', async () => {
    const { email, client } = await signedIn();
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await waitForMail(email);
    expect(mail.subject).toMatch(/^\d{6} is your verification code$/);
    const code = mail.subject.slice(0, 6);
    expect(mail.html).toContain(code);
    const without = await authFetch('GET', '/reauthenticate');
    expectAuthError(without, 401, 'no_authorization');
  });

  describe('e-mail change links', () => {
    withoutEmailChangeGuard();
    it('generate_link email_change_new changes the address once its link is verified', async () => {
      const { email } = await signedIn();
      const newEmail = uniqueEmail('moved');
      const admin = recordingClient('service').client.auth.admin;
      const link = await admin.generateLink({ type: 'email_change_new', email, newEmail });
      expect(link.error).toBeNull();
      expect(link.data.properties).toMatchObject({ verification_type: 'email_change_new' });
      expect(new URL(link.data.properties!.action_link).searchParams.get('type')).toBe('email_change');
      expect(link.data.user!.new_email).toBe(newEmail);
      const verified = await recordingClient().client.auth.verifyOtp({
        type: 'email_change',
        token_hash: link.data.properties!.hashed_token,
      });
      expect(verified.error).toBeNull();
      expect(verified.data.user!.email).toBe(newEmail);
    });
  });
});

describe('secure e-mail change with confirmations on', () => {
  withoutEmailChangeGuard();
  const instance = useAuthInstance((settings) => ({ ...settings, autoconfirm: false, maxFrequency: 0 }));
  const call = async (path: string, body: unknown, bearer?: string) => {
    const res = await fetch(`${instance.base()}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [versionHeader]: '2024-01-01',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('both links are needed: the first answers the single-confirmation message, the second changes the address', async () => {
    const email = uniqueEmail('secure');
    const newEmail = uniqueEmail('secure-new');
    await call('/admin/users', { email, password, email_confirm: true }, config.serviceRoleKey);
    const current = await call(
      '/admin/generate_link',
      { type: 'email_change_current', email, new_email: newEmail },
      config.serviceRoleKey,
    );
    const next = await call(
      '/admin/generate_link',
      { type: 'email_change_new', email, new_email: newEmail },
      config.serviceRoleKey,
    );
    expect([current.status, next.status]).toEqual([200, 200]);

    const first = await call('/verify', { type: 'email_change', token_hash: current.body.hashed_token });
    expect(first).toEqual({
      status: 200,
      body: { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' },
    });
    const second = await call('/verify', { type: 'email_change', token_hash: next.body.hashed_token });
    expect(second.status).toBe(200);
    expect((second.body.user as { email: string }).email).toBe(newEmail);
  });

  it('POST /resend mails the signup confirmation again to an unconfirmed user', async () => {
    const email = uniqueEmail('resend');
    expect((await call('/signup', { email, password })).status).toBe(200);
    const firstMail = await waitForMail(email);
    expect(await call('/resend', { type: 'signup', email })).toEqual({ status: 200, body: {} });
    const deadline = Date.now() + 5000;
    let secondMail = firstMail;
    while (secondMail.html === firstMail.html && Date.now() < deadline) secondMail = await waitForMail(email);
    expect(secondMail.html).not.toBe(firstMail.html);
  });
});

describe('features Castloop leaves off answer with GoTrue errors', () => {
  it('SSO: SAML 2.0 is disabled', async () => {
    const { error } = await recordingClient().client.auth.signInWithSSO({ domain: 'example.com' });
    expect(error).toMatchObject({ status: 404, code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' });
  });

  it('identity linking: a bearer token first, then "Manual linking is disabled"', async () => {
    expectAuthError(await authFetch('GET', '/user/identities/authorize?provider=github'), 401, 'no_authorization');
    const { accessToken } = await signedIn();
    const linked = await authFetch('GET', '/user/identities/authorize?provider=github', { bearer: accessToken });
    expectAuthError(linked, 404, 'manual_linking_disabled');
    expect(linked.body?.message).toBe('Manual linking is disabled');
  });

  it('MFA factors: no session is the missing bearer token; with one, TOTP enrolment is off', async () => {
    const without = await authFetch('POST', '/factors', { body: { factor_type: 'totp' } });
    expectAuthError(without, 401, 'no_authorization');
    expect(without.body?.message).toBe('This endpoint requires a valid Bearer token');
    const { client } = await signedIn();
    const { error } = await client.auth.mfa.enroll({ factorType: 'totp' });
    expect(error).toMatchObject({
      status: 422,
      code: 'mfa_totp_enroll_not_enabled',
      message: 'MFA enroll is disabled for TOTP',
    });
  });

  it('the id_token and web3 grants: the provider is not enabled', async () => {
    const { error } = await recordingClient().client.auth.signInWithIdToken({
      provider: 'google',
      token: 'not-a-real-token',
    });
    expect(error).toMatchObject({
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    const web3 = await authFetch('POST', '/token?grant_type=web3', {
      body: { chain: 'ethereum', message: 'm', signature: 's' },
    });
    expectAuthError(web3, 422, 'web3_provider_disabled');
    expect(web3.body?.message).toBe('Web3 provider is disabled');
    const unknown = await authFetch('POST', '/token?grant_type=magic', { body: {} });
    expectAuthError(unknown, 400, 'invalid_credentials');
    expect(unknown.body?.message).toBe('unsupported_grant_type');
  });

  it('the gateway refuses /auth/v1 without an apikey, as hosted Supabase does (the CLI serves it)', async () => {
    const res = await fetch(`${config.urls.api}/auth/v1/settings`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'No API key found in request' });
  });
});
