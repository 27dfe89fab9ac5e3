// Whether Auth tells a known e-mail address from an unknown one (issue 23, item 15). The local
// Auth does what GoTrue (supabase/auth v2.196) does with this project's config.toml: /recover
// and /resend answer alike, and each e-mail route counts requests per client address alike for
// both (GoTrue's RATE_LIMIT_OTP, one bucket per route). What GoTrue cannot be configured to hide
// is pinned here as it answers, and listed as accepted in docs/security.md.
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/stack.ts';
import { createUser } from '../support/users.ts';
import { password, useAuthInstance, versionHeader } from './auth-helpers.ts';

type Instance = ReturnType<typeof useAuthInstance>;

const post = async (instance: Instance, path: string, body: unknown) => {
  const res = await fetch(`${instance.base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [versionHeader]: '2024-01-01' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('with this project configuration (confirmations off, max_frequency 1s)', () => {
  const instance = useAuthInstance((settings) => ({
    ...settings,
    rateLimit: { ...settings.rateLimit, enabled: true, signInSignUps: 2 },
  }));

  it('answers /recover and /resend alike for a known and an unknown address', async () => {
    const known = await createUser('new');
    for (const email of [known.email, uniqueEmail('nobody')]) {
      expect(await post(instance, '/resend', { type: 'signup', email })).toEqual({ status: 200, body: {} });
    }
    const first = await post(instance, '/recover', { email: known.email });
    const unknown = await post(instance, '/recover', { email: uniqueEmail('nobody') });
    expect(first).toEqual({ status: 200, body: {} });
    expect(unknown).toEqual(first);
    // Each route's per-address limit (sign_in_sign_ups) is spent alike by both, then refuses both alike.
    const refused = { status: 429, body: { code: 'over_request_rate_limit', message: 'Request rate limit reached' } };
    expect(await post(instance, '/recover', { email: known.email })).toEqual(refused);
    expect(await post(instance, '/recover', { email: uniqueEmail('nobody') })).toEqual(refused);
  });
});

describe('with this project configuration and its e-mail limit at one', () => {
  const instance = useAuthInstance((settings) => ({ ...settings, rateLimit: { ...settings.rateLimit, enabled: true, emailSent: 1 } }));
  it("counts no e-mails while confirmations are off, as GoTrue's sendEmail skips email_sent then", async () => {
    const users = await Promise.all([createUser('new'), createUser('new')]);
    for (const user of users) expect(await post(instance, '/otp', { email: user.email, create_user: false })).toEqual({ status: 200, body: {} });
  });

  // What GoTrue answers differently, whatever it is configured to (accepted, docs/security.md).
  it('still tells them apart where GoTrue does: /otp without sign-up, a second e-mail within max_frequency, sign-up', async () => {
    const known = await createUser('new');
    expect((await post(instance, '/otp', { email: known.email, create_user: false })).status).toBe(200);
    expect(await post(instance, '/otp', { email: uniqueEmail('nobody'), create_user: false })).toEqual({
      status: 422,
      body: { code: 'otp_disabled', message: 'Signups not allowed for otp' },
    });
    const again = await post(instance, '/magiclink', { email: known.email });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('over_email_send_rate_limit');
    expect(await post(instance, '/signup', { email: known.email, password })).toEqual({
      status: 422,
      body: { code: 'user_already_exists', message: 'User already registered' },
    });
  });
});

describe('with confirmations on (not this project: GoTrue then counts e-mails sent, project-wide)', () => {
  const instance = useAuthInstance((settings) => ({
    ...settings,
    autoconfirm: false,
    rateLimit: { ...settings.rateLimit, enabled: true, emailSent: 1 },
  }));

  it('counts an e-mail only when one goes out, so only a known address meets email_sent', async () => {
    const [first, second] = await Promise.all([createUser('new'), createUser('new')]);
    expect((await post(instance, '/recover', { email: first.email })).status).toBe(200);
    expect((await post(instance, '/recover', { email: uniqueEmail('nobody') })).status).toBe(200);
    expect(await post(instance, '/recover', { email: second.email })).toEqual({
      status: 429,
      body: { code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' },
    });
  });
});
