// Request bodies that once took the functions down or hung, sent many times through the web
// server and the gateway, after which every function must still answer: a multipart upload whose
// file name holds a NUL, a truncated multipart body, and a JSON body over the limit on a
// keep-alive connection. Then text the database cannot store, which is a 4xx with nothing written,
// and the functions port, which must not take a client's word for its address.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';
import { localApiProxy, localSpaEnv } from '../../local/web.ts';
import { anonClient, config, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const headerEnd = Buffer.from('\r\n\r\n');

/** The answers complete in `buffer`, in order (Content-Length or chunked framing). */
function parseAnswers(buffer: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (;;) {
    const end = buffer.indexOf(headerEnd, at);
    if (end < 0) return answers;
    const [statusLine, ...lines] = buffer.subarray(at, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    let bodyStart = end + headerEnd.length;
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', bodyStart);
        if (lineEnd < 0) return answers;
        const size = parseInt(buffer.subarray(bodyStart, lineEnd).toString('latin1'), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return answers;
        chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        bodyStart = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(chunks);
      at = bodyStart;
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < bodyStart + length) return answers;
      body = buffer.subarray(bodyStart, bodyStart + length);
      at = bodyStart + length;
    }
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
  }
}

/**
 * Sends `requests` on one connection, each written whole before the next, and resolves with the
 * answers once `expected` have arrived. Fails when they do not arrive within `timeoutMs`, or when
 * the connection breaks before they all did.
 */
function onOneConnection(url: string, requests: Buffer[], expected = requests.length, timeoutMs = 10_000): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = net.connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${parseAnswers(received).length} of ${expected} answers within ${timeoutMs} ms`));
    }, timeoutMs);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      const answers = parseAnswers(received);
      if (answers.length >= expected) resolve(answers);
      else reject(error ?? new Error(`the connection closed after ${answers.length} of ${expected} answers`));
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (parseAnswers(received).length >= expected) settle();
    });
    socket.on('error', (error) => settle(error));
    socket.on('close', () => settle());
    void (async () => {
      for (const request of requests) await new Promise<void>((done) => socket.write(request, () => done()));
    })();
  });
}

function rawRequest(url: string, method: string, pathname: string, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)): Buffer {
  const { host } = new URL(url);
  const head = Object.entries({ host, 'content-length': String(body.length), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`${method} ${pathname} HTTP/1.1\r\n${head}\r\n`), body]);
}

// The two ways into /api: the web server (which proxies /api to the gateway) and the gateway.
const entries = () => [
  { name: 'web server', url: config.urls.web, api: '/api' },
  { name: 'gateway', url: config.urls.api, api: '/functions/v1/api' },
];

/** Every function answers as itself (never the gateway's 502 for a host that is gone). */
async function expectEveryFunctionAnswering(): Promise<void> {
  const fn = (name: string, init: RequestInit = {}) =>
    fetch(`${config.urls.api}/functions/v1/${name}`, { redirect: 'manual', ...init });
  const health = await fn('api/health');
  expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok', service: 'api' } });
  const webhook = await fn('stripe-webhook', { method: 'POST', body: '{}' });
  expect({ status: webhook.status, body: await webhook.json() }).toEqual({ status: 400, body: { message: 'Missing Stripe-Signature header' } });
  const callback = await fn('oauth-callback?state=short');
  expect(callback.status).toBe(303);
  expect(callback.headers.get('location')).toMatch(/\/dashboard\?outcome=failed$/);
  const deliveries = await fn('deliver-submissions', { method: 'POST', headers: { authorization: `Bearer ${config.anonKey}` } });
  expect({ status: deliveries.status, body: await deliveries.json() }).toEqual({
    status: 401,
    body: { message: 'Only the scheduler may run deliveries' },
  });
}

async function accessTokenOf(user: TestUser): Promise<string> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return data.session.access_token;
}

const pngHead = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function multipart(boundary: string, fields: string, filename: string, fileBytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fields"\r\n\r\n${fields}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`, 'latin1'),
    Buffer.from([...pngHead, ...new Array(fileBytes - pngHead.length).fill(7)]),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

// Under `npm test` the API tests run without the web server: then the site's real preview server
// (vite.config.ts with the local stack's /api proxy, as local/web.ts serves it) is started here,
// in front of an empty page.
let ownWeb: PreviewServer | null = null;
let ownWebDir: string | null = null;
beforeAll(async () => {
  const answering = await fetch(config.urls.web).then(
    () => true,
    () => false,
  );
  if (answering) return;
  ownWebDir = await mkdtemp(path.join(os.tmpdir(), 'castloop-web-'));
  await writeFile(path.join(ownWebDir, 'index.html'), '<!doctype html><title>Castloop</title>');
  Object.assign(process.env, localSpaEnv(config));
  ownWeb = await preview({
    configFile: path.join(repoRoot, 'vite.config.ts'),
    plugins: [localApiProxy(config.urls.api)],
    preview: { port: config.ports.web, host: config.host, strictPort: true },
    build: { outDir: ownWebDir },
    logLevel: 'warn',
  });
});
afterAll(async () => {
  await ownWeb?.close();
  if (ownWebDir) await rm(ownWebDir, { recursive: true, force: true });
});

describe('no request body stops the functions', () => {
  let token = '';
  beforeAll(async () => {
    token = await accessTokenOf(await createUser('new'));
  });

  it('an upload whose file name holds a NUL is refused with 400, 30 times, and every function still answers', async () => {
    const boundary = 'castloop-nul';
    // A large file part: the answer is given while the body is still being sent.
    const body = multipart(boundary, '{"podcastTitle":"Nul"}', 'logo\u0000.png', 2_000_000);
    for (let i = 0; i < 30; i++) {
      const entry = entries()[i % 2];
      const request = rawRequest(entry.url, 'POST', `${entry.api}/onboarding/submit-with-files`, {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }, body);
      const [answer] = await onOneConnection(entry.url, [request]);
      expect({ via: entry.name, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        via: entry.name,
        status: 400,
        body: { message: expect.stringMatching(/^Malformed multipart body/) },
      });
    }
    await expectEveryFunctionAnswering();
  });

  it('a truncated multipart body is answered 400 at once, 20 times, and every function still answers', async () => {
    const boundary = 'castloop-cut';
    const whole = multipart(boundary, '{"podcastTitle":"Cut"}', 'logo.png', 4_000);
    const truncated = whole.subarray(0, whole.length - 100);
    for (let i = 0; i < 20; i++) {
      const entry = entries()[i % 2];
      const request = rawRequest(entry.url, 'POST', `${entry.api}/onboarding/submit-with-files`, {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      }, truncated);
      const [answer] = await onOneConnection(entry.url, [request], 1, 5_000);
      expect({ via: entry.name, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        via: entry.name,
        status: 400,
        body: { message: 'The logo file part ended early' },
      });
    }
    await expectEveryFunctionAnswering();
  });

  it('a 2 MB JSON body is a 413 and the same connection serves the next request, 10 times each way', async () => {
    const big = Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2_000_000) }));
    for (let i = 0; i < 10; i++) {
      for (const entry of entries()) {
        const answers = await onOneConnection(entry.url, [
          rawRequest(entry.url, 'POST', `${entry.api}/auth/login`, { 'content-type': 'application/json' }, big),
          rawRequest(entry.url, 'GET', `${entry.api}/health`, {}),
        ]);
        expect(answers.map((answer) => ({ via: entry.name, status: answer.status, body: JSON.parse(answer.body) }))).toEqual([
          { via: entry.name, status: 413, body: { message: 'Request body is larger than 1000000 bytes' } },
          { via: entry.name, status: 200, body: { status: 'ok', service: 'api' } },
        ]);
      }
    }
    await expectEveryFunctionAnswering();
  });
});

describe('text the database cannot store is a 400 {message}, with nothing written', () => {
  const post = (token: string, route: string, body: string) =>
    fetch(`${config.urls.api}/functions/v1/api/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('/api/onboarding/submit with a NUL or a lone surrogate in a text field', async () => {
    const user = await createUser('subscribed');
    const token = await accessTokenOf(user);
    // Written as JSON escapes, as a client would send them.
    for (const text of ['Before\\u0000after', 'Before\\ud800after']) {
      const res = await post(token, 'onboarding/submit', `{"fields":{"podcastTitle":"${text}","podcastAuthor":"Someone"}}`);
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 400,
        body: { message: 'Could not save the profile: Text may not contain NUL characters or invalid Unicode' },
      });
    }
    const profile = await withDb(
      async (db) => (await db.query('select podcast_title, podcast_author from public.profiles where id = $1', [user.id])).rows[0],
    );
    expect(profile).toEqual({ podcast_title: null, podcast_author: null });
  });

  it('/api/onboarding/submit-with-files with a NUL or a lone surrogate in the fields part stores no file', async () => {
    const user = await createUser('subscribed');
    const boundary = 'castloop-fields';
    const token = await accessTokenOf(user);
    // A save with a file is written as the service, not through PostgREST: both are refused alike.
    for (const text of ['a\\u0000b', 'a\\ud800b']) {
      const res = await fetch(`${config.urls.api}/functions/v1/api/onboarding/submit-with-files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: new Uint8Array(multipart(boundary, `{"podcastTitle":"${text}"}`, 'logo.png', 4_000)),
      });
      expect({ text, status: res.status, body: await res.json() }).toEqual({
        text,
        status: 400,
        body: { message: 'Could not save the profile: Text may not contain NUL characters or invalid Unicode' },
      });
    }
    const stored = await withDb(async (db) => ({
      objects: (await db.query(`select count(*)::int as n from storage.objects where bucket_id = 'brand-assets' and name like $1`, [`${user.id}/%`])).rows[0].n,
      profile: (await db.query('select podcast_title, logo_path from public.profiles where id = $1', [user.id])).rows[0],
    }));
    expect(stored).toEqual({ objects: 0, profile: { podcast_title: null, logo_path: null } });
  });

  it('/api/episodes/submit-direct-storage with an address that does not parse, bad percent-encoding or a NUL', async () => {
    const user = await createUser('onboarded');
    const token = await accessTokenOf(user);
    const cases: [string, string][] = [
      ['http://[::1', 'Not a file in the episodes storage: http://[::1'],
      [`/storage/v1/object/episodes/${user.id}/uploads/%E0%A4%A.mp4`, `Not a file in the episodes storage: /storage/v1/object/episodes/${user.id}/uploads/%E0%A4%A.mp4`],
      [`${user.id}/uploads/a\\u0000b.mp4`, 'Could not submit the episode: Text may not contain NUL characters or invalid Unicode'],
    ];
    for (const [uploadUrl, message] of cases) {
      const res = await post(token, 'episodes/submit-direct-storage', `{"uploadUrls":["${uploadUrl}"],"episodeData":{"title":"Bad"}}`);
      expect({ uploadUrl, status: res.status, body: await res.json() }).toEqual({ uploadUrl, status: 400, body: { message } });
    }
    const episodes = await withDb(
      async (db) => (await db.query('select count(*)::int as n from public.episodes where user_id = $1', [user.id])).rows[0].n,
    );
    expect(episodes).toBe(0);
  });
});

describe('the functions port', () => {
  it("does not take a client's X-Forwarded-For: Auth records the caller's own address", async () => {
    const user = await createUser('new');
    // Straight to the functions port, from an address of our choosing, naming another one.
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${config.urls.functions}/api/auth/login`,
        { method: 'POST', localAddress: '127.0.0.7', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.66.0.1' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ email: user.email, password: user.password }));
    });
    expect(answer).toBe(200);
    const recorded = await withDb(
      async (db) => (await db.query('select host(ip) as ip from auth.sessions where user_id = $1', [user.id])).rows.map((row) => row.ip),
    );
    expect(recorded).toEqual(['127.0.0.7']);
  });
});
