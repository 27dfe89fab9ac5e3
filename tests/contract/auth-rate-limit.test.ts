// [auth.rate_limit]: per-IP limits answer 429. A second Auth instance with low limits is served
// here directly (no gateway), sharing the test stack's database and mailbox.
import { describe, expect, it } from 'vitest';
import { loadAuthSettings } from '../../local/auth/settings.ts';
import { loadConfig } from '../../local/config.ts';
import { config, uniqueEmail } from '../support/stack.ts';
import { password, useAuthInstance, versionHeader } from './auth-helpers.ts';

describe('rate limits', () => {
  const instance = useAuthInstance((settings) => ({
    ...settings,
    rateLimit: { enabled: true, signInSignUps: 3, tokenVerifications: 2, tokenRefresh: 2, emailSent: 2 },
  }));

  const post = (path: string, body: unknown) =>
    fetch(`${instance.base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [versionHeader]: '2024-01-01' },
      body: JSON.stringify(body),
    });

  it('answers 429 over_request_rate_limit once sign-ups and sign-ins pass the limit', async () => {
    const email = uniqueEmail('rate');
    expect((await post('/signup', { email, password })).status).toBe(200);
    expect((await post('/token?grant_type=password', { email, password })).status).toBe(200);
    expect((await post('/token?grant_type=password', { email, password: 'wrong-password' })).status).toBe(400);
    const limited = await post('/token?grant_type=password', { email, password });
    expect(limited.status).toBe(429);
    expect(limited.headers.get(versionHeader)).toBe('2024-01-01');
    expect(await limited.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
    expect((await post('/signup', { email: uniqueEmail('rate'), password })).status).toBe(429);
  });

  it('limits /verify, refreshes and e-mails separately', async () => {
    for (let i = 0; i < 2; i++)
      expect((await post('/verify', { type: 'recovery', token_hash: 'f'.repeat(56) })).status).toBe(403);
    const verify = await post('/verify', { type: 'recovery', token_hash: 'f'.repeat(56) });
    expect(verify.status).toBe(429);
    expect((await verify.json()).code).toBe('over_request_rate_limit');

    for (let i = 0; i < 2; i++)
      expect((await post('/token?grant_type=refresh_token', { refresh_token: 'aaaaaaaaaaaa' })).status).toBe(400);
    expect((await post('/token?grant_type=refresh_token', { refresh_token: 'aaaaaaaaaaaa' })).status).toBe(429);

    // /recover has its own bucket at the sign_in_sign_ups rate (GoTrue's RATE_LIMIT_OTP), not
    // the sign-ins' one this file's first test spent; email_sent counts e-mails sent, and none
    // while confirmations are off (auth-enumeration.test.ts).
    for (let i = 0; i < 3; i++) expect((await post('/recover', { email: uniqueEmail('nobody') })).status).toBe(200);
    const recover = await post('/recover', { email: uniqueEmail('nobody') });
    expect(recover.status).toBe(429);
    expect((await recover.json()).code).toBe('over_request_rate_limit');
  });
});

describe('rate limit settings', () => {
  it('come from config.toml [auth.rate_limit], and CASTLOOP_AUTH_RATE_LIMIT=off turns them off', () => {
    const dev = loadAuthSettings(loadConfig('dev', { CASTLOOP_AUTH_RATE_LIMIT: '' }));
    expect(dev.rateLimit).toEqual({
      enabled: true,
      signInSignUps: 30,
      tokenVerifications: 30,
      tokenRefresh: 150,
      emailSent: 30,
    });
    const off = loadAuthSettings(loadConfig('dev', { CASTLOOP_AUTH_RATE_LIMIT: 'off' }));
    expect(off.rateLimit.enabled).toBe(false);
    // The test stack keeps limits on, scaled up so a whole test run fits in them.
    const test = loadAuthSettings(loadConfig('test'));
    expect(test.rateLimit.signInSignUps).toBeGreaterThan(dev.rateLimit.signInSignUps);
    // GoTrue's bcrypt cost; the test stack hashes cheaply, hundreds of test users on 2 cores.
    expect(dev.passwordHashCost).toBe(10);
    expect(test.passwordHashCost).toBe(4);
  });

  it('reads the other [auth] settings the issue names', () => {
    const settings = loadAuthSettings(config);
    expect(settings).toMatchObject({
      siteUrl: config.urls.web,
      jwtExpiry: 3600,
      minimumPasswordLength: 8,
      autoconfirm: true,
      refreshTokenReuseInterval: 10,
      externalUrl: `${config.urls.api}/auth/v1`,
      redirectPatterns: ['http://localhost:3000', 'http://127.0.0.1:23000'],
    });
    expect(settings.templates.recovery).toEqual({
      subject: 'Reset your Castloop password',
      contentPath: expect.stringMatching(/supabase\/templates\/recovery\.html$/),
    });
  });
});
