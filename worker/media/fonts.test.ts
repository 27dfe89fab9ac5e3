// The brand font from a registry that answers as npm's does (a local server: tests run offline).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionFont, FALLBACK_FONT, fontsourceSlug, wantedFontFiles } from './fonts.ts';

let dir: string;
let server: Server;
let registry: string;
let tarball: Buffer;
let integrity: string;
const requests: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-fonts-'));
  const files = path.join(dir, 'pkg', 'package', 'files');
  mkdirSync(files, { recursive: true });
  // Stand-in font files (FreeType reads the format from the bytes, not the name).
  for (const name of ['open-sans-latin-700-normal.woff2', 'open-sans-latin-ext-400-normal.woff2', 'open-sans-cyrillic-700-normal.woff2', 'open-sans-latin-700-normal.woff']) {
    copyFileSync(FALLBACK_FONT.file, path.join(files, name));
  }
  execFileSync('tar', ['-czf', path.join(dir, 'open-sans.tgz'), '-C', path.join(dir, 'pkg'), 'package']);
  tarball = readFileSync(path.join(dir, 'open-sans.tgz'));
  integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/@fontsource%2Fopen-sans/latest') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ version: '5.0.0', dist: { tarball: `${registry}/tarballs/open-sans.tgz`, integrity } }));
    } else if (req.url === '/@fontsource%2Flato/latest') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ version: '5.0.0', dist: { tarball: `${registry}/tarballs/open-sans.tgz`, integrity: 'sha512-AAAA' } }));
    } else if (req.url === '/tarballs/open-sans.tgz') {
      res.end(tarball);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the caption font', () => {
  it('fetches the brand font package once, checks it, and keeps its Latin WOFF2 files', async () => {
    const cacheDir = path.join(dir, 'cache');
    const font = await captionFont('open sans', { registry, cacheDir, log: () => {} });
    expect(font).toEqual({ family: 'Open Sans', dir: path.join(cacheDir, 'open-sans') });
    expect(readdirSync(font.dir).sort()).toEqual(['DejaVuSans-Bold.ttf', 'font.json', 'open-sans-latin-700-normal.woff2', 'open-sans-latin-ext-400-normal.woff2']);
    // Cached: no registry needed the second time.
    const before = requests.length;
    expect(await captionFont('Open Sans', { registry: 'http://127.0.0.1:1', cacheDir, log: () => {} })).toEqual(font);
    expect(requests.length).toBe(before);
  });

  it('falls back to DejaVu Sans for a tarball that fails its integrity, an unknown family, no font or no registry', async () => {
    const cacheDir = path.join(dir, 'cache-2');
    const logs: string[] = [];
    const fallback = { family: 'DejaVu Sans', dir: path.join(cacheDir, 'fallback') };
    expect(await captionFont('Lato', { registry, cacheDir, log: (l) => logs.push(l) })).toEqual(fallback);
    expect(logs).toEqual(['captions in DejaVu Sans: the font Lato could not be fetched (@fontsource/lato: the tarball does not match its integrity)']);
    const before = requests.length;
    expect(await captionFont('Not A Google Font', { registry, cacheDir, log: () => {} })).toEqual(fallback);
    expect(await captionFont(null, { registry, cacheDir, log: () => {} })).toEqual(fallback);
    expect(await captionFont('Open Sans', { registry: null, cacheDir, log: () => {} })).toEqual(fallback);
    expect(requests.length).toBe(before);
    expect(readdirSync(fallback.dir)).toEqual(['DejaVuSans-Bold.ttf']);
  });

  it('names packages and picks files as Fontsource does', () => {
    expect(fontsourceSlug('M PLUS 1p')).toBe('m-plus-1p');
    expect(fontsourceSlug('Open Sans')).toBe('open-sans');
    expect(wantedFontFiles(['x-japanese-1-400-normal.woff2', 'x-japanese-2-400-normal.woff2', 'x-400-normal.woff'])).toEqual([
      'x-japanese-1-400-normal.woff2',
      'x-japanese-2-400-normal.woff2',
    ]);
  });
});
