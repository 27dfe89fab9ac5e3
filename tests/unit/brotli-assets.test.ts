// The preview server sends the build's scripts and styles with Brotli once compressed (gzip
// before that, and to clients without Brotli); the content is the file's, byte for byte.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliAssets } from '../../local/brotli-assets.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-brotli-'));
const script = `export const lines = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `line ${i}`))};\n`;
let server: PreviewServer;
let base = '';

beforeAll(async () => {
  mkdirSync(path.join(dir, 'dist', 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'dist', 'index.html'), `<!doctype html><title>t</title>${'<p>page</p>'.repeat(200)}`);
  writeFileSync(path.join(dir, 'dist', 'assets', 'app-abc123.js'), script);
  server = await preview({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    plugins: [brotliAssets()],
    build: { outDir: 'dist' },
    preview: { port: 0, host: '127.0.0.1' },
  });
  base = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (url: string, acceptEncoding: string) => {
  const res = await fetch(`${base}${url}`, { headers: { 'accept-encoding': acceptEncoding } });
  return { encoding: res.headers.get('content-encoding'), type: res.headers.get('content-type'), body: await res.text() };
};

describe('brotli assets on the preview server', () => {
  it('sends gzip until the Brotli copy is ready, then Brotli, with the same content', async () => {
    const first = await get('/assets/app-abc123.js', 'br, gzip');
    expect(first).toMatchObject({ encoding: 'gzip', body: script });
    await expect.poll(async () => (await get('/assets/app-abc123.js', 'br, gzip')).encoding).toBe('br');
    expect(await get('/assets/app-abc123.js', 'br, gzip')).toEqual({ encoding: 'br', type: 'text/javascript', body: script });
  });

  it('sends gzip to a client without Brotli', async () => {
    expect(await get('/assets/app-abc123.js', 'gzip')).toMatchObject({ encoding: 'gzip', body: script });
  });

  it('leaves the page itself to the static server', async () => {
    expect((await get('/', 'br, gzip')).encoding).not.toBe('br');
  });

  it('leaves an address with broken percent-encoding to the static server, never a 500', async () => {
    const res = await fetch(`${base}/assets/%E0%A4%A.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBeLessThan(500);
  });
});
