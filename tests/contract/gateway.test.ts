// What the gateway (nginx, local/gateway/gateway.ts) hands an upstream and answers itself, seen
// from both ends: a gateway of its own whose functions upstream is a server that echoes what it
// received, and whose PostgREST upstream is a closed port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../local/gateway/gateway.ts';
import { relayHeader, relayToken } from '../../local/lib/client-address.ts';
import type { ChildService } from '../../local/lib/process.ts';
import { config } from '../support/stack.ts';

let echo: http.Server;
let gateway: ChildService;
let base = '';
const site = config.urls.web;

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, config.host, resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  echo = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url, headers: req.headers }));
  });
  await new Promise<void>((resolve) => echo.listen(0, config.host, resolve));
  const [port, closed] = [await freePort(), await freePort()];
  base = `http://${config.host}:${port}`;
  gateway = await startGateway({
    ...config,
    dataDir: path.join(config.dataDir, 'gateway-contract'),
    ports: { ...config.ports, gateway: port, rest: closed, functions: (echo.address() as AddressInfo).port },
    urls: { ...config.urls, api: base },
  });
});
afterAll(async () => {
  await gateway?.stop();
  echo?.closeAllConnections();
  await new Promise((resolve) => echo?.close(resolve));
});

function get(pathAndQuery: string, headers: Record<string, string> = {}, from = '127.0.0.7'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathAndQuery}`, { headers, localAddress: from }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('what an upstream receives', () => {
  it('the path without its prefix and with its encoding as sent, the Host as sent, and a bearer from a lone apikey', async () => {
    const res = await get('/functions/v1/echo/a%2Fb%20c?x=%41&y', { apikey: config.anonKey, host: 'example.test:8000' });
    const seen = JSON.parse(res.body) as { url: string; headers: http.IncomingHttpHeaders };
    expect(seen.url).toBe('/echo/a%2Fb%20c?x=%41&y');
    expect(seen.headers.host).toBe('example.test:8000');
    expect(seen.headers.authorization).toBe(`Bearer ${config.anonKey}`);
  });

  it("only the gateway's client address: forged forwarding headers and the relay header never pass", async () => {
    const res = await get('/functions/v1/echo', {
      'x-forwarded-for': '10.9.9.9', forwarded: 'for=10.9.9.9', 'x-real-ip': '10.9.9.9',
      'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', [relayHeader]: 'not-the-token',
    });
    const { headers } = JSON.parse(res.body) as { headers: http.IncomingHttpHeaders };
    expect(headers['x-forwarded-for']).toBe('127.0.0.7');
    for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', relayHeader]) expect(headers[name], name).toBeUndefined();

    const relayed = await get('/functions/v1/echo', { 'x-forwarded-for': '198.51.100.9, 127.0.0.1', [relayHeader]: relayToken(config.jwtSecret) });
    const passed = (JSON.parse(relayed.body) as { headers: http.IncomingHttpHeaders }).headers;
    expect(passed['x-forwarded-for']).toBe('198.51.100.9');
    expect(passed[relayHeader]).toBeUndefined();
  });
});

describe('what the gateway answers itself', () => {
  it("Kong's 502 when an upstream is down, with the site's CORS headers", async () => {
    const res = await get('/rest/v1/plans?apikey=' + config.anonKey, { origin: site });
    expect([res.status, JSON.parse(res.body)]).toEqual([502, { message: 'An invalid response was received from the upstream server' }]);
    expect(res.headers['access-control-allow-origin']).toBe(site);
  });

  it('takes the apikey from the query, and refuses an unknown one with CORS headers', async () => {
    const wrong = await get('/rest/v1/plans?apikey=nope', { origin: site });
    expect([wrong.status, JSON.parse(wrong.body)]).toEqual([401, { message: 'Invalid API key' }]);
    expect(wrong.headers['access-control-allow-origin']).toBe(site);
    expect(wrong.headers['access-control-allow-credentials']).toBe('true');
  });
});
