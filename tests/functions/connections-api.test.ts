// Social connections through the `api` and `oauth-callback` functions against the OAuth and
// WordPress sandboxes: the PKCE flow and every refusal (nothing stored), the list, disconnect,
// the token check, WordPress application passwords, and the daily refresh job run by cron.
import { describe, expect, it } from 'vitest';
import { runCronJobNow } from '../../local/cron/scheduler.ts';
import { SANDBOX_WORDPRESS_ENDLESS_SITE, SANDBOX_WORDPRESS_USER } from '../../local/sandbox/oauth/index.ts';
import { anonClient, config, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';

const api = (path: string) => `${config.urls.api}/functions/v1/api/${path}`;
const BINDING = 'castloop-oauth-binding';
/** Everything any response was seen to carry, checked for token material at the end. */
const seen: string[] = [];

async function tokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error) throw error;
  return data.session!.access_token;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(api(path), {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  seen.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

interface Flow {
  authUrl: URL;
  state: string;
  cookie: string;
}

async function startFlow(token: string, provider = 'google', cookie?: string): Promise<Flow> {
  const res = await fetch(api(`oauth/${provider}`), { headers: { authorization: `Bearer ${token}`, ...(cookie ? { cookie } : {}) } });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const binding = new RegExp(`${BINDING}=([^;]+)`).exec(setCookie)?.[1];
  expect(setCookie).toMatch(/HttpOnly/i);
  const authUrl = new URL(body.authUrl);
  return { authUrl, state: authUrl.searchParams.get('state')!, cookie: `${BINDING}=${binding}` };
}

/** The sandbox consent page, then 'Authorize' or 'Deny': where the provider sends the browser. */
async function decide(flow: Flow, decision: 'authorize' | 'deny'): Promise<URL> {
  const page = await fetch(flow.authUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('>Authorize<');
  expect(html).toContain('>Deny<');
  const form = new URLSearchParams(flow.authUrl.searchParams);
  form.set('decision', decision);
  const res = await fetch(`${flow.authUrl.origin}${flow.authUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

/** The provider's redirect, delivered to the callback function (the site proxies /oauth/callback to it). */
async function callback(redirect: URL, cookie: string | null): Promise<URL> {
  expect(`${redirect.origin}${redirect.pathname}`).toBe(`${config.urls.web}/oauth/callback`);
  const res = await fetch(`${config.urls.api}/functions/v1/oauth-callback${redirect.search}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

async function connect(user: TestUser, provider = 'google'): Promise<{ token: string; flow: Flow }> {
  const token = await tokenOf(user);
  const flow = await startFlow(token, provider);
  const back = await callback(await decide(flow, 'authorize'), flow.cookie);
  expect(back.toString()).toBe(`${config.urls.web}/dashboard?connection=${provider}&outcome=connected`);
  return { token, flow };
}

async function entry(token: string, provider: string) {
  const { status, body } = await call('GET', 'oauth-connections', token);
  expect(status).toBe(200);
  return (body as { provider: string }[]).find((e) => e.provider === provider) as Record<string, unknown>;
}

async function storedConnections(userId: string) {
  return withDb(async (db) => (await db.query('select provider from public.oauth_connections where user_id = $1', [userId])).rows);
}

async function sandbox(path: string, body?: unknown) {
  const res = await fetch(`${config.urls.sandbox}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

describe('GET /api/oauth/{provider} and the callback', () => {
  it('starts PKCE (S256) with a state, and Authorize stores an encrypted, working connection', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const flow = await startFlow(token);
    expect(Object.fromEntries(flow.authUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'castloop-local-google',
      redirect_uri: `${config.urls.web}/oauth/callback`,
      code_challenge_method: 'S256',
      access_type: 'offline',
      scope: 'https://www.googleapis.com/auth/drive.file',
    });
    expect(flow.authUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const back = await callback(await decide(flow, 'authorize'), flow.cookie);
    expect(back.searchParams.get('outcome')).toBe('connected');

    const google = await entry(token, 'google');
    expect(google).toMatchObject({ provider: 'google', available: true, connected: true, hasAccessToken: true, hasRefreshToken: true });
    expect(Date.parse(google.expiresAt as string)).toBeGreaterThan(Date.now());
    const stored = await withDb(async (db) =>
      (await db.query('select access_token_encrypted, refresh_token_encrypted, key_id from private.oauth_tokens where user_id = $1', [user.id])).rows[0],
    );
    expect(stored.key_id).toBe('local-1');
    expect(stored.access_token_encrypted).not.toMatch(/sbx_/);
    expect(stored.refresh_token_encrypted).not.toMatch(/sbx_/);
  });

  it('refuses a reused state and stores nothing', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const flow = await startFlow(token);
    const redirect = await decide(flow, 'authorize');
    expect((await callback(redirect, flow.cookie)).searchParams.get('outcome')).toBe('connected');
    expect((await call('PATCH', 'oauth-connections/google/disconnect', token)).status).toBe(200);
    expect((await callback(redirect, flow.cookie)).searchParams.get('outcome')).toBe('failed');
    expect(await storedConnections(user.id)).toEqual([]);
  });

  it("refuses another user's state (a browser that did not start the flow) and stores nothing for either", async () => {
    const victim = await createUser('onboarded');
    const attacker = await createUser('onboarded');
    const attackerFlow = await startFlow(await tokenOf(attacker));
    const victimFlow = await startFlow(await tokenOf(victim));
    // The attacker's authorization completed in the victim's browser, and the other way round.
    expect((await callback(await decide(attackerFlow, 'authorize'), victimFlow.cookie)).searchParams.get('outcome')).toBe('failed');
    expect((await callback(await decide(victimFlow, 'authorize'), null)).searchParams.get('outcome')).toBe('failed');
    expect(await storedConnections(victim.id)).toEqual([]);
    expect(await storedConnections(attacker.id)).toEqual([]);
  });

  it('refuses a wrong PKCE verifier (the provider rejects the code) and stores nothing', async () => {
    const user = await createUser('onboarded');
    const flow = await startFlow(await tokenOf(user));
    await withDb((db) => db.query(`update private.oauth_states set code_verifier = repeat('w', 64) where state = $1`, [flow.state]));
    expect((await callback(await decide(flow, 'authorize'), flow.cookie)).searchParams.get('outcome')).toBe('failed');
    expect(await storedConnections(user.id)).toEqual([]);
  });

  it('refuses an expired state and stores nothing', async () => {
    const user = await createUser('onboarded');
    const flow = await startFlow(await tokenOf(user));
    const { rows } = await withDb((db) =>
      db.query(`select extract(epoch from expires_at - created_at)::int as seconds from private.oauth_states where state = $1`, [flow.state]),
    );
    expect(rows[0].seconds).toBe(600);
    await withDb((db) => db.query(`update private.oauth_states set expires_at = now() - interval '1 second' where state = $1`, [flow.state]));
    expect((await callback(await decide(flow, 'authorize'), flow.cookie)).searchParams.get('outcome')).toBe('failed');
    expect(await storedConnections(user.id)).toEqual([]);
  });

  it('reports the provider refusing (Deny, or a bad code) as failed and stores nothing', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const denied = await startFlow(token);
    const redirect = await decide(denied, 'deny');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect((await callback(redirect, denied.cookie)).toString()).toBe(`${config.urls.web}/dashboard?connection=google&outcome=failed`);

    const forged = await startFlow(token);
    const bogus = new URL(`${config.urls.web}/oauth/callback?state=${forged.state}&code=not-a-code`);
    expect((await callback(bogus, forged.cookie)).searchParams.get('outcome')).toBe('failed');
    expect(await storedConnections(user.id)).toEqual([]);
  });

  it('opens facebook, instagram and tiktok only to the internal test account (an operator flag)', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const list = (await call('GET', 'oauth-connections', token)).body as { provider: string; available: boolean }[];
    expect(list.map((e) => [e.provider, e.available])).toEqual([
      ['google', true],
      ['youtube', true],
      ['facebook', false],
      ['instagram', false],
      ['tiktok', false],
      ['x', true],
      ['linkedin', true],
      ['wordpress', true],
    ]);
    expect((await call('GET', 'oauth/facebook', token)).status).toBe(403);
    // Users cannot set the flag themselves.
    const update = await fetch(`${config.urls.api}/rest/v1/profiles?id=eq.${user.id}`, {
      method: 'PATCH',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ is_internal_test_account: true }),
    });
    expect(update.status).toBe(403);

    await withDb((db) => db.query('update public.profiles set is_internal_test_account = true where id = $1', [user.id]));
    expect(((await call('GET', 'oauth-connections', token)).body as { available: boolean }[]).every((e) => e.available)).toBe(true);
    await connect(user, 'tiktok');
    expect(await entry(token, 'tiktok')).toMatchObject({ hasAccessToken: true });
  });

  it('answers 401 without a session and 404 for an unknown provider', async () => {
    expect((await fetch(api('oauth/google'))).status).toBe(401);
    expect((await fetch(api('oauth-connections'))).status).toBe(401);
    const token = await tokenOf(await createUser('onboarded'));
    expect((await call('GET', 'oauth/myspace', token)).status).toBe(404);
  });
});

describe('disconnect and the token check', () => {
  it('PATCH .../disconnect removes the connection and revokes the grant at the provider', async () => {
    const user = await createUser('onboarded');
    const { token, flow } = await connect(user, 'x');
    const result = await call('PATCH', 'oauth-connections/x/disconnect', token);
    expect(result).toMatchObject({ status: 200, body: { success: true } });
    expect(await entry(token, 'x')).toMatchObject({ hasAccessToken: false, connected: false });
    expect(await sandbox(`/oauth/_control/grant?state=${flow.state}`)).toMatchObject({ revoked: true });
    expect((await call('PATCH', 'oauth-connections/x/disconnect', token)).status).toBe(404);
  });

  it('POST /api/oauth/refresh-all refreshes an expired token, validates the rest, and asks to reconnect a revoked grant', async () => {
    const user = await createUser('onboarded');
    const { token, flow } = await connect(user, 'google');
    await connect(user, 'youtube');
    await withDb((db) => db.query(`update public.oauth_connections set expires_at = now() - interval '1 second' where user_id = $1 and provider = 'google'`, [user.id]));
    expect(Date.parse((await entry(token, 'google')).expiresAt as string)).toBeLessThan(Date.now());

    const check = await call('POST', 'oauth/refresh-all', token);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ validated: [{ provider: 'youtube' }], refreshed: [{ provider: 'google' }], failed: [], needsReauth: [] });
    expect(Date.parse((await entry(token, 'google')).expiresAt as string)).toBeGreaterThan(Date.now() + 3000_000);

    await sandbox('/oauth/_control/revoke', { state: flow.state });
    await withDb((db) => db.query(`update public.oauth_connections set expires_at = now() - interval '1 minute' where user_id = $1 and provider = 'google'`, [user.id]));
    const again = await call('POST', 'oauth/refresh-all', token);
    expect(again.body).toEqual({ validated: [{ provider: 'youtube' }], refreshed: [], failed: [], needsReauth: [{ provider: 'google' }] });
    expect(await entry(token, 'google')).toMatchObject({ hasRefreshToken: false, status: 'failed' });
  });
});

describe('WordPress application passwords', () => {
  const site = () => `${config.urls.sandbox}/wordpress/podcast-${Date.now()}`;

  it('verifies against the site before storing, and DELETE removes it', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const website = site();
    await withDb((db) => db.query('update public.profiles set podcast_website = $2 where id = $1', [user.id, website]));

    const bad = await call('POST', 'oauth/wordpress/connect', token, { username: SANDBOX_WORDPRESS_USER.username, password: 'wrong pass word' });
    expect(bad).toMatchObject({ status: 400, body: { message: 'The WordPress site refused this username and application password' } });
    expect(await storedConnections(user.id)).toEqual([]);

    const missing = await call('POST', 'oauth/wordpress/connect', token, { username: '  ', password: 'x' });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Please enter both username and application password' } });

    const good = await call('POST', 'oauth/wordpress/connect', token, { username: ` ${SANDBOX_WORDPRESS_USER.username} `, password: SANDBOX_WORDPRESS_USER.password });
    expect(good).toMatchObject({ status: 200, body: { success: true } });
    expect(await entry(token, 'wordpress')).toMatchObject({ hasAccessToken: true, connected: true, accountLabel: expect.stringContaining('127.0.0.1') });
    const stored = await withDb(async (db) => (await db.query('select access_token_encrypted, site_url from private.oauth_tokens where user_id = $1', [user.id])).rows[0]);
    expect(stored.site_url).toBe(website);
    expect(stored.access_token_encrypted).not.toContain('abcd');
    expect((await call('POST', 'oauth/refresh-all', token)).body).toMatchObject({ validated: [{ provider: 'wordpress' }] });

    expect((await call('DELETE', 'oauth/wordpress/disconnect', token)).status).toBe(200);
    expect(await entry(token, 'wordpress')).toMatchObject({ hasAccessToken: false });
    expect((await call('DELETE', 'oauth/wordpress/disconnect', token)).status).toBe(404);
  });

  it('asks for the site when the profile has none, and refuses non-https sites elsewhere', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const creds = { username: SANDBOX_WORDPRESS_USER.username, password: SANDBOX_WORDPRESS_USER.password };
    expect(await call('POST', 'oauth/wordpress/connect', token, creds)).toMatchObject({
      status: 400,
      body: { message: 'Please enter the address of your WordPress site' },
    });
    expect((await call('POST', 'oauth/wordpress/connect', token, { ...creds, siteUrl: 'http://example.com' })).body.message).toBe(
      'The WordPress site must use https',
    );
    expect((await call('POST', 'oauth/wordpress/connect', token, { ...creds, siteUrl: site() })).status).toBe(200);
  });
});

// Issue 23, item 7: a site the subscriber names is a server the functions call. Its answer is
// capped (one that never ends is cut off at once, not read into memory), and it must be on a
// public address, checked on what its name resolves to, however the address is written.
describe('WordPress sites the functions must not trust', () => {
  const creds = { username: SANDBOX_WORDPRESS_USER.username, password: SANDBOX_WORDPRESS_USER.password };
  const endlessSite = `${config.urls.sandbox}/wordpress/${SANDBOX_WORDPRESS_ENDLESS_SITE}`;
  const endlessState = async () => (await (await fetch(`${config.urls.sandbox}/wordpress/_control/endless`)).json()) as { bytesSent: number; open: number };

  it('cuts off an answer that never ends with a 502 {message}, stops reading it, and keeps answering', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    const before = await endlessState();
    const res = await call('POST', 'oauth/wordpress/connect', token, { ...creds, siteUrl: endlessSite });
    // Cut off at the cap: the 10 s time limit would answer 'did not send its whole answer in time'.
    expect(res).toMatchObject({ status: 502, body: { message: "The WordPress site's answer is larger than 256 KB" } });
    expect(await storedConnections(user.id)).toEqual([]);
    // The function hung up: the site stops sending, having sent little more than the cap (plus socket buffers).
    await expect.poll(async () => (await endlessState()).open, { timeout: 5000 }).toBe(before.open);
    expect((await endlessState()).bytesSent - before.bytesSent).toBeLessThan(32 * 1024 * 1024);

    // refresh-all reads the same site the same way: a failure, not a host holding gigabytes.
    expect((await call('POST', 'oauth/wordpress/connect', token, { ...creds, siteUrl: `${config.urls.sandbox}/wordpress/fine-${Date.now()}` })).status).toBe(200);
    await withDb((db) => db.query('update private.oauth_tokens set site_url = $2 where user_id = $1', [user.id, endlessSite]));
    const refreshed = await call('POST', 'oauth/refresh-all', token);
    expect(refreshed.body.failed).toEqual([{ provider: 'wordpress', message: "The WordPress site's answer is larger than 256 KB" }]);
    expect((await fetch(api('health'))).status).toBe(200);
  });

  it('refuses every non-public address, however written, with a 400 {message} and stores nothing', async () => {
    const user = await createUser('onboarded');
    const token = await tokenOf(user);
    for (const siteUrl of [
      'https://[::ffff:7f00:1]/',
      'https://[::]/',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/',
      'https://[::1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://127.0.0.1/',
      'https://2130706433/',
      'https://10.0.0.1/',
      'https://169.254.169.254/',
      // A name is judged by what it resolves to.
      'https://localhost/',
    ]) {
      const res = await call('POST', 'oauth/wordpress/connect', token, { ...creds, siteUrl });
      expect(res, siteUrl).toMatchObject({ status: 400, body: { message: 'The site address must be a public internet address' } });
    }
    expect(await storedConnections(user.id)).toEqual([]);
  });

  it("allows only the sandbox's own origin on loopback, not another port there", async () => {
    const user = await createUser('onboarded');
    const sandbox = new URL(config.urls.sandbox);
    const res = await call('POST', 'oauth/wordpress/connect', await tokenOf(user), { ...creds, siteUrl: `http://${sandbox.hostname}:${config.ports.db}/wordpress/x` });
    expect(res).toMatchObject({ status: 400, body: { message: 'The WordPress site must use https' } });
  });
});

describe('the daily refresh job (cron -> net.http_post -> oauth-refresh)', () => {
  const googleExpiries = (users: TestUser[]) =>
    withDb(async (db) =>
      (await db.query(`select user_id, expires_at, created_at from public.oauth_connections where provider = 'google' and user_id = any($1)`, [users.map((u) => u.id)])).rows,
    );

  it('is scheduled daily and, run now, refreshes the due tokens', async () => {
    const jobs = await withDb(async (db) => (await db.query(`select schedule, command, active from cron.job where jobname = 'refresh-oauth-tokens-daily'`)).rows);
    expect(jobs).toEqual([{ schedule: '17 3 * * *', command: expect.stringContaining("invoke_edge_function('oauth-refresh')"), active: true }]);

    const users = [await createUser('onboarded'), await createUser('onboarded')];
    const flows = [];
    for (const user of users) flows.push((await connect(user, 'google')).flow);
    const before = await googleExpiries(users);

    const { run, responses } = await runCronJobNow(config, 'refresh-oauth-tokens-daily');
    expect(run.status).toBe('succeeded');
    expect(responses.map((r) => r.status_code)).toEqual([200]);
    expect(JSON.parse(responses[0].content!).refreshed).toBeGreaterThanOrEqual(2);
    for (const flow of flows) expect(await sandbox(`/oauth/_control/grant?state=${flow.state}`)).toMatchObject({ refreshCount: 1, revoked: false });
    for (const row of await googleExpiries(users)) {
      const earlier = before.find((b) => b.user_id === row.user_id)!;
      expect(row.expires_at.getTime()).toBeGreaterThan(earlier.expires_at.getTime());
      // A renewed token set starts the 30-day age again.
      expect(row.created_at.getTime()).toBeGreaterThan(earlier.created_at.getTime());
    }
    const details = await withDb(async (db) =>
      (await db.query(`select d.status from cron.job_run_details d join cron.job j using (jobid) where j.jobname = 'refresh-oauth-tokens-daily' order by d.runid desc limit 1`)).rows,
    );
    expect(details).toEqual([{ status: 'succeeded' }]);
  });

  it('two runs at once refresh each token once', async () => {
    const users = [await createUser('onboarded'), await createUser('onboarded'), await createUser('onboarded')];
    const flows = [];
    for (const user of users) flows.push((await connect(user, 'google')).flow);
    const run = () =>
      fetch(`${config.urls.api}/functions/v1/oauth-refresh`, { method: 'POST', headers: { authorization: `Bearer ${config.serviceRoleKey}` } }).then(async (res) => ({
        status: res.status,
        body: await res.json(),
      }));
    const results = await Promise.all([run(), run()]);
    for (const result of results) expect(result.status).toBe(200);
    expect(results.reduce((sum, r) => sum + r.body.refreshed, 0)).toBeGreaterThanOrEqual(3);
    for (const flow of flows) expect(await sandbox(`/oauth/_control/grant?state=${flow.state}`)).toMatchObject({ refreshCount: 1 });
  });

  it('marks a revoked grant for reconnection', async () => {
    const user = await createUser('onboarded');
    const { token, flow } = await connect(user, 'google');
    await sandbox('/oauth/_control/revoke', { state: flow.state });
    const { responses } = await runCronJobNow(config, 'refresh-oauth-tokens-daily');
    expect(responses.map((r) => r.status_code)).toEqual([200]);
    expect(JSON.parse(responses[0].content!).needsReauth).toBeGreaterThanOrEqual(1);
    expect(await entry(token, 'google')).toMatchObject({ hasAccessToken: true, hasRefreshToken: false, status: 'failed' });
  });

  it('refuses a caller without the service key', async () => {
    const res = await fetch(`${config.urls.api}/functions/v1/oauth-refresh`, { method: 'POST', headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(res.status).toBe(401);
  });
});

describe('secrets', () => {
  it('no answer seen in this file carried a token, refresh token or application password', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) {
      expect(text).not.toMatch(/sbx_/);
      expect(text).not.toContain(SANDBOX_WORDPRESS_USER.password);
    }
  });
});
