import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProcessingFailure } from '../failure.ts';
import { answerJson, cappedFetch, check } from './provider-answer.ts';

const endlessBody = () =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(64 * 1024).fill(120));
    },
  });

describe('platform answers', () => {
  it('a refusal becomes a ProcessingFailure with its status and the start of its text, even when the text never ends', async () => {
    const refused = check(new Response(endlessBody(), { status: 403 }), 'Posting to X');
    await expect(refused).rejects.toBeInstanceOf(ProcessingFailure);
    await expect(refused).rejects.toMatchObject({ status: 403, message: 'Posting to X: 403 (answer not read)' });
    await expect(check(new Response('quota', { status: 429 }), 'Uploading', 'Google')).rejects.toMatchObject({ message: 'Uploading: Google answered 429 quota' });
  });

  it('a success is parsed as JSON; an endless or non-JSON one is a 502', async () => {
    expect(await answerJson<{ id: string }>(new Response('{"id":"v1"}'), 'Uploading')).toEqual({ id: 'v1' });
    await expect(answerJson(new Response(endlessBody()), 'Uploading')).rejects.toMatchObject({ status: 502 });
    await expect(answerJson(new Response('<html>'), 'Uploading')).rejects.toMatchObject({ status: 502 });
  });
});

describe('cappedFetch (what the OpenAI SDK is given)', () => {
  it('hands on an answer within the cap whole, and refuses one that never ends', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/small') {
        res.writeHead(201, { 'x-request-id': 'r1', 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const more = () => {
        while (res.write(chunk));
        res.once('drain', more);
      };
      more();
      req.on('close', () => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const small = await cappedFetch(1024)(`${base}/small`);
      expect([small.status, small.headers.get('x-request-id'), await small.json()]).toEqual([201, 'r1', { ok: true }]);
      await expect(cappedFetch(1024 * 1024)(`${base}/endless`)).rejects.toThrow(/1048576/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
