// With [auth.email] enable_confirmations = true (here: a second Auth instance with that setting,
// sharing the test stack's database and mailbox), signup answers the user without a session and
// mails a confirmation link; the link confirms the address and signs in.
import { describe, expect, it } from 'vitest';
import { config, uniqueEmail } from '../support/stack.ts';
import { decodeJwt, expectValid, password, useAuthInstance, userSchema, versionHeader, waitForMail } from './auth-helpers.ts';

describe('e-mail confirmations on', () => {
  const instance = useAuthInstance((settings) => ({ ...settings, autoconfirm: false, maxFrequency: 0 }));

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${instance.base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [versionHeader]: '2024-01-01' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('signs up without a session, mails the confirmation link, and the link confirms and signs in', async () => {
    const email = uniqueEmail('confirm');
    const redirectTo = `${config.urls.web}/welcome`;
    const signup = await post(`/signup?redirect_to=${encodeURIComponent(redirectTo)}`, {
      email,
      password,
      data: { first_name: 'Ada' },
    });
    expect(signup.status).toBe(200);
    expect(signup.body.access_token).toBeUndefined();
    expectValid(userSchema(), signup.body);
    expect(signup.body.email_confirmed_at).toBeUndefined();
    expect(signup.body.confirmation_sent_at).toBeTruthy();

    const early = await post('/token?grant_type=password', { email, password });
    expect(early).toEqual({ status: 400, body: { code: 'email_not_confirmed', message: 'Email not confirmed' } });

    // A second signup while unconfirmed answers the user again (and re-sends), never a 422.
    expect((await post('/signup', { email, password })).status).toBe(200);

    const mail = await waitForMail(email, 'Confirm your Castloop account');
    expect(mail.html).toContain(`Confirm that ${email} is your address`);
    const link = /href="([^"]+)"/.exec(mail.html)![1].replaceAll('&amp;', '&');
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${config.urls.api}/auth/v1/verify`);
    expect(url.searchParams.get('type')).toBe('signup');

    const clicked = await fetch(link, { redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const location = new URL(clicked.headers.get('location')!);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    const claims = decodeJwt(fragment.get('access_token')!);
    expect(claims.email).toBe(email);
    expect(claims.amr).toEqual([{ method: 'email/signup', timestamp: expect.any(Number) }]);

    const signIn = await post('/token?grant_type=password', { email, password });
    expect(signIn.status).toBe(200);
    expect((signIn.body.user as Record<string, unknown>).email_confirmed_at).toBeTruthy();

    // Confirmed now: a repeated signup must not reveal that the address has an account.
    const repeated = await post('/signup', { email, password });
    expect(repeated.status).toBe(200);
    expect(repeated.body.id).not.toBe((signIn.body.user as Record<string, unknown>).id);
  });
});
