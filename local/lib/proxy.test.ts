// proxyTo between a client and an upstream that stops reading a body part-way, or that waits for
// a body the client never finishes. (An early answer through the real functions host is covered by
// tests/functions/request-bodies.test.ts.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyTo } from './proxy.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function proxyFor(upstreamPort: number): Promise<number> {
  return listen((req, res) => proxyTo({ host: '127.0.0.1', port: upstreamPort }, req.url ?? '/', req, res));
}

/** Writes `raw` on one connection and collects the status lines of `expected` answers. */
function statusesOnOneConnection(port: number, raw: Buffer[], expected: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1');
    const statuses = () => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (statuses().length >= expected) {
        socket.destroy();
        resolve(statuses());
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(statuses()));
    void (async () => {
      for (const part of raw) await new Promise<void>((done) => socket.write(part, () => done()));
    })();
  });
}

describe('proxyTo', () => {
  it('answers 502 when the upstream drops a request mid-body, and serves the next request on the connection', async () => {
    const upstream = await listen((req, res) => {
      if (req.method === 'GET') return void res.end('ok');
      req.socket.destroy();
    });
    const port = await proxyFor(upstream);
    const body = Buffer.alloc(2_000_000, 'x');
    for (let i = 0; i < 5; i++) {
      const statuses = await statusesOnOneConnection(
        port,
        [
          Buffer.from(`POST /big HTTP/1.1\r\nhost: x\r\ncontent-length: ${body.length}\r\n\r\n`),
          body,
          Buffer.from('GET /next HTTP/1.1\r\nhost: x\r\n\r\n'),
        ],
        2,
      );
      expect(statuses).toEqual(['HTTP/1.1 502', 'HTTP/1.1 200']);
    }
  });

  it('ends the upstream request when the client goes away part-way through its body', async () => {
    let upstreamClosedEarly = false;
    const upstream = await listen((req) => {
      req.resume();
      req.on('close', () => {
        upstreamClosedEarly = !req.complete;
      });
    });
    const port = await proxyFor(upstream);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    await new Promise<void>((resolve) => socket.write('POST /upload HTTP/1.1\r\nhost: x\r\ncontent-length: 1000000\r\n\r\npart of it', () => resolve()));
    socket.destroy();
    const deadline = Date.now() + 5_000;
    while (!upstreamClosedEarly && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstreamClosedEarly).toBe(true);
  });
});
