// What an outside review broke on the running stack, each as the client sees it: cross-site
// requests and CORS, whose address Auth counts, answers that tell accounts apart, e-mail changes
// through Auth, bad input answered with 500, oversized bodies, and forged forwarding headers.
import http from 'node:http';
import { SignJWT } from 'jose';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { anonClient, config, uniqueEmail, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { signIn } from '../support/submissions.ts';

const site = config.urls.web;
const foreign = 'https://evil.example';
const api = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => Record<string, unknown>;
}

/** One request from a chosen loopback address (127.0.0.x), so tests can act as distinct clients. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.from },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = { 'content-type': 'application/json' };

async function loginCookies(user: TestUser, from?: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(api('auth/login'), {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify({ email: user.email, password: user.password }),
    from,
  });
  expect(res.status, res.text).toBe(200);
  return (res.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; ');
}

async function accessTokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return data.session.access_token;
}

function signedToken(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(config.jwtSecret));
}

describe('CORS answers only the site', () => {
  it('the gateway gives a foreign origin no CORS headers, and the site credentials', async () => {
    const preflight = (origin: string) =>
      request(`${config.urls.api}/rest/v1/plans`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    const evil = await preflight(foreign);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(evil.headers['access-control-allow-credentials']).toBeUndefined();
    const own = await preflight(site);
    expect(own.headers['access-control-allow-origin']).toBe(site);
    expect(own.headers['access-control-allow-credentials']).toBe('true');
  });

  it("the api function's own allowlist answers, not overridden by the gateway", async () => {
    const preflight = (origin: string) =>
      request(api('create-checkout-session'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight(foreign)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(site)).headers['access-control-allow-origin']).toBe(site);
  });
});

describe('state-changing /api requests carried by the session cookie', () => {
  const checkout = (cookie: string, headers: Record<string, string>) =>
    request(api('create-checkout-session'), {
      method: 'POST',
      headers: { ...json, cookie, ...headers },
      body: JSON.stringify({ tier: 'growth' }),
    });
  const checkoutsOf = (userId: string) =>
    withDb(async (db) => (await db.query('select count(*)::int as n from public.subscriptions where user_id = $1', [userId])).rows[0].n as number);

  it('refuses another origin and a missing Origin with 403, and serves the site', async () => {
    const user = await createUser('new');
    const cookie = await loginCookies(user);
    // Another site, and another origin on the same site (SameSite=Lax still sends the cookie).
    for (const origin of [foreign, 'http://127.0.0.1:4999']) {
      const fromElsewhere = await checkout(cookie, { origin });
      expect(fromElsewhere.status).toBe(403);
      expect(fromElsewhere.json()).toEqual({ message: 'Cross-site request refused' });
    }
    expect((await checkout(cookie, {})).status).toBe(403);
    expect(await checkoutsOf(user.id)).toBe(0);
    const fromSite = await checkout(cookie, { origin: site });
    expect(fromSite.status, fromSite.text).toBe(200);
    expect(fromSite.json().checkoutUrl).toEqual(expect.any(String));
  });

  it('lets a Bearer caller without Origin through (scripts cannot be forged by a page)', async () => {
    const user = await createUser('new');
    const res = await request(api('create-checkout-session'), {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${await accessTokenOf(user)}` },
      body: JSON.stringify({ tier: 'growth' }),
    });
    expect(res.status, res.text).toBe(200);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax (Secure only off loopback)', async () => {
    const user = await createUser('new');
    const res = await request(api('auth/login'), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const access = (res.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('sb-access-token='));
    expect(access).toMatch(/; HttpOnly/i);
    expect(access).toMatch(/; SameSite=Lax/i);
    expect(access).not.toMatch(/; Secure/i);
  });
});

describe("Auth counts the caller's own address", () => {
  const sessionAddress = (userId: string) =>
    withDb(
      async (db) =>
        (await db.query('select host(ip) as ip from auth.sessions where user_id = $1 order by created_at desc limit 1', [userId])).rows[0]
          ?.ip as string | undefined,
    );

  it('a sign-in through /api/auth/login reaches Auth as the caller, not as the function', async () => {
    const user = await createUser('new');
    await loginCookies(user, '127.0.0.2');
    expect(await sessionAddress(user.id)).toBe('127.0.0.2');
  });

  it('a client cannot choose its address with X-Forwarded-For', async () => {
    const user = await createUser('new');
    await loginCookies(user, '127.0.0.3', { 'x-forwarded-for': '10.9.9.9' });
    expect(await sessionAddress(user.id)).toBe('127.0.0.3');
    const direct = await request(`${config.urls.api}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { ...json, apikey: config.anonKey, 'x-forwarded-for': '10.8.8.8' },
      body: JSON.stringify({ email: user.email, password: user.password }),
      from: '127.0.0.4',
    });
    expect(direct.status).toBe(200);
    expect(await sessionAddress(user.id)).toBe('127.0.0.4');
  });
});

describe('POST /api/auth/forgot-password', () => {
  it('answers the same for an existing account asked twice and for an unknown address', async () => {
    const user = await createUser('new');
    const ask = (email: string) =>
      request(api('auth/forgot-password'), { method: 'POST', headers: json, body: JSON.stringify({ email }) });
    const first = await ask(user.email);
    const second = await ask(user.email);
    const unknown = await ask(uniqueEmail('nobody'));
    expect(first.status).toBe(200);
    expect({ status: second.status, body: second.json() }).toEqual({ status: 200, body: first.json() });
    expect({ status: unknown.status, body: unknown.json() }).toEqual({ status: 200, body: first.json() });
  });
});

describe('e-mail changes', () => {
  const emailsOf = (userId: string) =>
    withDb(
      async (db) =>
        (
          await db.query(
            'select u.email, u.email_change, p.email as profile_email from auth.users u join public.profiles p using (id) where u.id = $1',
            [userId],
          )
        ).rows[0],
    );

  it('are refused through Auth, for the user and the admin API alike', async () => {
    const user = await createUser('new');
    const res = await request(`${config.urls.api}/auth/v1/user`, {
      method: 'PUT',
      headers: { ...json, apikey: config.anonKey, authorization: `Bearer ${await accessTokenOf(user)}` },
      body: JSON.stringify({ email: uniqueEmail('thief') }),
    });
    expect(res.status).not.toBe(200);
    const admin = await request(`${config.urls.api}/auth/v1/admin/users/${user.id}`, {
      method: 'PUT',
      headers: { ...json, apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}` },
      body: JSON.stringify({ email: uniqueEmail('thief') }),
    });
    expect(admin.status).not.toBe(200);
    expect(await emailsOf(user.id)).toEqual({ email: user.email, email_change: '', profile_email: user.email });
  });

  it("are made by an operator with private.change_user_email, the profile following", async () => {
    const user = await createUser('new');
    const moved = uniqueEmail('moved');
    await withDb((db) => db.query('select private.change_user_email($1, $2)', [user.id, moved]));
    expect(await emailsOf(user.id)).toEqual({ email: moved, email_change: '', profile_email: moved });
    const { error } = await anonClient().auth.signInWithPassword({ email: moved, password: user.password });
    expect(error).toBeNull();
  });
});

describe('bad input is a 4xx, never a 500', () => {
  const rpc = (name: string, token: string, body: unknown) =>
    request(`${config.urls.api}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { ...json, apikey: config.anonKey, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  // Not found is PT404 in all our SQL (docs/decisions.md, "One error contract"): PostgREST answers 404.
  it('rpc/submit_episode naming a missing file answers 404 file_not_found', async () => {
    const user = await createUser('onboarded');
    const res = await rpc('submit_episode', await accessTokenOf(user), { files: [`${user.id}/uploads/missing.mp4`] });
    expect(res.status, res.text).toBe(404);
    expect(res.json()).toMatchObject({ code: 'PT404', message: 'file_not_found' });
  });

  it('an admin resubmission of an unknown log answers 404 original_log_not_found', async () => {
    const admin = await createUser('admin');
    const owner = await createUser('onboarded');
    const file = `${owner.id}/uploads/episode.mp4`;
    await withDb((db) =>
      db.query(`insert into storage.objects (bucket_id, name, owner_id, metadata) values ('episodes', $1, $2, '{"mimetype":"video/mp4","size":1024}')`, [
        file,
        owner.id,
      ]),
    );
    const res = await rpc('resubmit_submission', await accessTokenOf(admin), {
      object_storage_files: [file],
      user_email: owner.email,
      original_log_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.status, res.text).toBe(404);
    expect(res.json()).toMatchObject({ code: 'PT404', message: 'original_log_not_found' });
  });

  it('a sign-up with a 250-character first name succeeds; the profile keeps 200', async () => {
    const email = uniqueEmail('longname');
    const { data, error } = await anonClient().auth.signUp({
      email,
      password: 'correct-horse-battery',
      options: { data: { first_name: `  ${'A'.repeat(250)}  `, last_name: 'B'.repeat(201) } },
    });
    expect(error).toBeNull();
    const profile = await withDb(
      async (db) => (await db.query('select first_name, last_name from public.profiles where id = $1', [data.user!.id])).rows[0],
    );
    expect(profile).toEqual({ first_name: 'A'.repeat(200), last_name: 'B'.repeat(200) });
  });

  it('Storage refuses a token whose sub is not a user id with a 4xx', async () => {
    const token = await signedToken({ sub: 'not-a-uuid', role: 'authenticated', aud: 'authenticated' });
    const res = await request(`${config.urls.api}/storage/v1/object/episodes/not-a-uuid/a.mp4`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'video/mp4' },
      body: 'bytes',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
  });

  it('/api/auth/user answers 401 to a signed token with an unknown role', async () => {
    const user = await createUser('new');
    const token = await signedToken({ sub: user.id, role: 'superuser', aud: 'authenticated', email: user.email });
    const res = await request(api('auth/user'), { headers: { authorization: `Bearer ${token}` } });
    expect({ status: res.status, body: res.json() }).toEqual({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('a signed Stripe event without `created` answers 400 and records nothing', async () => {
    const stripe = new Stripe(config.env.STRIPE_SECRET_KEY);
    const id = `evt_nocreated_${Date.now()}`;
    const payload = JSON.stringify({ id, object: 'event', type: 'customer.created', data: { object: { id: 'cus_x', object: 'customer' } } });
    const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: config.env.STRIPE_WEBHOOK_SECRET });
    const res = await request(`${config.urls.api}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { ...json, 'stripe-signature': header },
      body: payload,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json().message).toMatch(/created/);
    const recorded = await withDb(
      async (db) => (await db.query('select count(*)::int as n from private.stripe_events where id = $1', [id])).rows[0].n,
    );
    expect(recorded).toBe(0);
  });
});

describe('TUS uploads', () => {
  const metadata = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');

  /** Opens an episode upload of 4 bytes as the user (Storage takes only opened uploads in the episodes bucket). */
  async function opened(user: TestUser, objectName: string): Promise<string> {
    const { client } = await signIn(user);
    const { error } = await client.rpc('open_episode_upload', { name: objectName, bytes: 4 });
    if (error) throw new Error(error.message);
    return objectName;
  }

  it('refuse a cacheControl with a newline at creation, leaving nothing behind', async () => {
    const user = await createUser('onboarded');
    const objectName = await opened(user, `${user.id}/uploads/newline.mp4`);
    const res = await request(`${config.urls.api}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        apikey: config.anonKey,
        authorization: `Bearer ${await accessTokenOf(user)}`,
        'tus-resumable': '1.0.0',
        'upload-length': '4',
        'upload-metadata': metadata({ bucketName: 'episodes', objectName, contentType: 'video/mp4', cacheControl: '3600\r\nx-evil: 1' }),
      },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/cacheControl/);
    expect(res.headers.location).toBeUndefined();
  });

  it('build Location from the address the client reached, never from its forwarded headers', async () => {
    const user = await createUser('onboarded');
    const res = await request(`${config.urls.api}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        apikey: config.anonKey,
        authorization: `Bearer ${await accessTokenOf(user)}`,
        'tus-resumable': '1.0.0',
        'upload-length': '4',
        'upload-metadata': metadata({ bucketName: 'episodes', objectName: await opened(user, `${user.id}/uploads/where.mp4`), contentType: 'video/mp4' }),
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'host=evil.example;proto=https',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${config.urls.api}/storage/v1/upload/resumable/`));
  });
});

describe('JSON bodies', () => {
  it('a body over the limit is refused with 413 once it passes the limit', async () => {
    const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1_100_000) });
    const res = await request(api('auth/login'), { method: 'POST', headers: json, body: big });
    expect({ status: res.status, body: res.json() }).toEqual({
      status: 413,
      body: { message: 'Request body is larger than 1000000 bytes' },
    });
  });

  it.each([
    ['the api function', api('auth/login'), 413],
    ['Auth', `${config.urls.api}/auth/v1/token?grant_type=password&apikey=${config.anonKey}`, 400],
  ])('%s answers without waiting for the rest of an endless body', async (_name, url, expected) => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { ...json, 'transfer-encoding': 'chunked' } }, (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      });
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      req.write(`{"email":"a@example.com","password":"${'x'.repeat(1_100_000)}`);
      // The body never ends: only an answer given at the limit can arrive.
    });
    expect(answer).toBe(expected);
  });
});
