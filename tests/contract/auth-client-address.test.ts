// Auth's rate limits count the client the gateway names: the socket's peer, or, for a request
// the functions host relays, the caller the function names in X-Forwarded-For. A gateway with a
// low-limit Auth instance (sharing the test stack's database) on its own port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../../local/auth/index.ts';
import { startGateway } from '../../local/gateway/gateway.ts';
import { relayHeader, relayToken } from '../../local/lib/client-address.ts';
import type { LocalService } from '../../local/lib/service.ts';
import { config } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';

let auth: LocalService;
let gateway: http.Server;
let base = '';
let user: TestUser;

beforeAll(async () => {
  auth = await createAuthService(config, {
    settings: (settings) => ({ ...settings, rateLimit: { ...settings.rateLimit, enabled: true, signInSignUps: 3 } }),
    log: () => {},
  });
  const unused: LocalService = { handler: (_req, res) => void res.writeHead(404).end(), close: async () => {} };
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, config.host, resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  gateway = await startGateway({ ...config, ports: { ...config.ports, gateway: port } }, { auth, storage: unused });
  base = `http://${config.host}:${port}`;
  user = await createUser('new');
});
afterAll(async () => {
  gateway?.closeAllConnections();
  await new Promise((resolve) => gateway?.close(resolve));
  await auth?.close();
});

function signIn(from: string, password: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/auth/v1/token?grant_type=password`,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', apikey: config.anonKey, ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ email: user.email, password }));
  });
}

describe('rate limits per client', () => {
  it("one client's wrong passwords never block another client", async () => {
    for (let i = 0; i < 3; i++) expect(await signIn('127.0.0.2', 'wrong-password')).toBe(400);
    expect(await signIn('127.0.0.2', user.password)).toBe(429);
    expect(await signIn('127.0.0.3', user.password)).toBe(200);
  });

  it('a client cannot escape its limit by naming another address', async () => {
    for (let i = 0; i < 3; i++) expect(await signIn('127.0.0.5', 'wrong-password', { 'x-forwarded-for': `10.0.0.${i}` })).toBe(400);
    expect(await signIn('127.0.0.5', user.password, { 'x-forwarded-for': '10.0.0.99' })).toBe(429);
  });

  it('the functions host, with its relay token, has its callers counted one by one', async () => {
    const relayed = (caller: string, password: string) =>
      signIn('127.0.0.6', password, { 'x-forwarded-for': caller, [relayHeader]: relayToken(config.jwtSecret) });
    for (let i = 0; i < 3; i++) expect(await relayed('198.51.100.1', 'wrong-password')).toBe(400);
    expect(await relayed('198.51.100.1', user.password)).toBe(429);
    expect(await relayed('198.51.100.2', user.password)).toBe(200);
  });
});
