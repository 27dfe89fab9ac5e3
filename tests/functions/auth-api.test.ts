// The spec's /api/auth/* paths, through the gateway to the `api` function: payloads, cookies,
// `{ message }` errors with fitting statuses, and 401 for signed-out callers.
import { describe, expect, it } from 'vitest';
import { waitForEmail } from '../e2e/support/browser.ts';
import { anonClient, config, uniqueEmail } from '../support/stack.ts';

const api = (path: string) => `${config.urls.api}/functions/v1/api/auth/${path}`;

async function post(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(api(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, cookies: res.headers.getSetCookie() };
}

function cookieHeader(cookies: string[]): string {
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}

const password = 'correct-horse-battery';

async function registered() {
  const email = uniqueEmail('api');
  const res = await post('register', { email, password, firstName: 'Ada', lastName: 'Lovelace' });
  expect(res.status).toBe(201);
  return { email, cookies: res.cookies };
}

describe('POST /api/auth/register', () => {
  it('creates the account, answers the user and sets session cookies', async () => {
    const email = uniqueEmail('api');
    const res = await post('register', { email, password, firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', onboardingCompleted: false, postAutomatically: true });
    expect(res.body.user.subscriptionStatus).toBeNull();
    const names = res.cookies.map((cookie) => cookie.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['sb-access-token', 'sb-refresh-token']));
    expect(res.cookies.find((cookie) => cookie.startsWith('sb-access-token'))).toMatch(/HttpOnly/i);
  });

  it('refuses a taken e-mail with 409 and the server message', async () => {
    const { email } = await registered();
    const res = await post('register', { email, password, firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'User already registered' });
  });

  it.each([
    [{ email: 'nope', password, firstName: 'A', lastName: 'B' }, 'Invalid email address'],
    [{ email: 'a@example.com', password: 'short', firstName: 'A', lastName: 'B' }, 'Password must be at least 8 characters'],
    [{ email: 'a@example.com', password, firstName: '', lastName: 'B' }, 'First name is required'],
    [{ email: 'a@example.com', password, firstName: 'A', lastName: '' }, 'Last name is required'],
  ])('refuses invalid input with 400: %j', async (payload, message) => {
    const res = await post('register', payload);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await post('register', '{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body must be valid JSON' });
  });
});

describe('POST /api/auth/login and GET /api/auth/user', () => {
  it('signs in, answers the user with its state, and the cookie authenticates /user', async () => {
    const { email } = await registered();
    const login = await post('login', { email, password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ email, subscriptionStatus: null, onboardingCompleted: false });
    const me = await fetch(api('user'), { headers: { cookie: cookieHeader(login.cookies) } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email, firstName: 'Ada' });
  });

  it('accepts a Bearer token from supabase-js as well', async () => {
    const { email } = await registered();
    const { data } = await anonClient().auth.signInWithPassword({ email, password });
    const me = await fetch(api('user'), { headers: { authorization: `Bearer ${data.session!.access_token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(email);
  });

  it('refuses a wrong password with 401', async () => {
    const { email } = await registered();
    const res = await post('login', { email, password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid login credentials' });
  });

  it('refuses an empty password with 400', async () => {
    const res = await post('login', { email: 'a@example.com', password: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Password is required' });
  });

  it('answers 401 to a signed-out caller, and to a garbage token', async () => {
    const anonymous = await fetch(api('user'));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Unauthorized' });
    const garbage = await fetch(api('user'), { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(garbage.status).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session and clears the cookies', async () => {
    const { cookies } = await registered();
    const res = await post('logout', undefined, { cookie: cookieHeader(cookies), origin: config.urls.web });
    expect(res.status).toBe(200);
    expect(res.cookies.some((cookie) => cookie.startsWith('sb-access-token=;') || /sb-access-token=.*Max-Age=0/i.test(cookie))).toBe(true);
    const me = await fetch(api('user'), { headers: { cookie: cookieHeader(cookies) } });
    expect(me.status).toBe(401);
  });

  it('is harmless without a session', async () => {
    expect((await post('logout')).status).toBe(200);
  });
});

describe('password reset through /api/auth/forgot-password and /api/auth/reset-password', () => {
  it('e-mails a link to /reset-password whose token sets a new password once', async () => {
    const { email } = await registered();
    const forgot = await post('forgot-password', { email });
    expect(forgot.status).toBe(200);
    const mail = await waitForEmail(email);
    const link = /href="([^"]+\/reset-password\?token=[^"]+)"/.exec(mail.html)?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${config.urls.web}/reset-password?token=`)).toBe(true);
    const token = new URL(link!.replace(/&amp;/g, '&')).searchParams.get('token')!;

    const reset = await post('reset-password', { token, password: 'a-brand-new-password' });
    expect(reset.status).toBe(200);
    expect((await post('login', { email, password: 'a-brand-new-password' })).status).toBe(200);
    expect((await post('login', { email, password })).status).toBe(401);

    const reused = await post('reset-password', { token, password: 'yet-another-password' });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ message: 'This password reset link is invalid or has expired.' });
  });

  it('answers the same for an unknown e-mail (no account enumeration)', async () => {
    const res = await post('forgot-password', { email: uniqueEmail('nobody') });
    expect(res.status).toBe(200);
  });

  it('refuses an invalid e-mail, a bad token and a short password', async () => {
    expect((await post('forgot-password', { email: 'nope' })).body).toEqual({ message: 'Invalid email address' });
    const bad = await post('reset-password', { token: 'deadbeef', password: 'long-enough-password' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'This password reset link is invalid or has expired.' });
    const short = await post('reset-password', { token: 'deadbeef', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ message: 'Password must be at least 8 characters' });
  });
});

describe('unknown paths', () => {
  it('answer 404 with a message', async () => {
    const res = await fetch(`${config.urls.api}/functions/v1/api/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toMatch(/No route/);
  });
});
