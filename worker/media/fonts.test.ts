// The brand font from a registry that answers as npm's does (a local server: tests run offline).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleFontFamilies } from '../../supabase/functions/_shared/domain/google-fonts.ts';
import pinnedPackages from './caption-font-packages.json' with { type: 'json' };
import { captionFont, FALLBACK_FONT, fontsourceSlug, wantedFontFiles, type CaptionFontPins } from './fonts.ts';

let dir: string;
let server: Server;
let registry: string;
let tarball: Buffer;
let integrity: string;
let pins: CaptionFontPins;
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
  pins = { 'Open Sans': { version: '5.0.0', integrity }, Lato: { version: '5.0.0', integrity: 'sha512-AAAA' } };
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    // The registry's tarball addresses; a `latest` lookup would 404.
    if (req.url === '/@fontsource/open-sans/-/open-sans-5.0.0.tgz' || req.url === '/@fontsource/lato/-/lato-5.0.0.tgz') {
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
    const font = await captionFont('open sans', { registry, cacheDir, log: () => {}, pins });
    expect(font).toEqual({ family: 'Open Sans', dir: path.join(cacheDir, 'open-sans@5.0.0') });
    expect(requests).toEqual(['/@fontsource/open-sans/-/open-sans-5.0.0.tgz']);
    expect(readdirSync(font.dir).sort()).toEqual(['DejaVuSans-Bold.ttf', 'font.json', 'open-sans-latin-700-normal.woff2', 'open-sans-latin-ext-400-normal.woff2']);
    // Cached: no registry needed the second time.
    const before = requests.length;
    expect(await captionFont('Open Sans', { registry: 'http://127.0.0.1:1', cacheDir, log: () => {}, pins })).toEqual(font);
    expect(requests.length).toBe(before);
  });

  it('falls back to DejaVu Sans for a tarball that fails its pinned integrity, an unpinned or unknown family, no font or no registry', async () => {
    const cacheDir = path.join(dir, 'cache-2');
    const logs: string[] = [];
    const fallback = { family: 'DejaVu Sans', dir: path.join(cacheDir, 'fallback') };
    expect(await captionFont('Lato', { registry, cacheDir, log: (l) => logs.push(l), pins })).toEqual(fallback);
    expect(logs).toEqual(['captions in DejaVu Sans: the font Lato could not be fetched (@fontsource/lato@5.0.0: the tarball does not match its pinned integrity)']);
    const before = requests.length;
    expect(await captionFont('Roboto', { registry, cacheDir, log: () => {}, pins })).toEqual(fallback);
    expect(await captionFont('Not A Google Font', { registry, cacheDir, log: () => {}, pins })).toEqual(fallback);
    expect(await captionFont(null, { registry, cacheDir, log: () => {}, pins })).toEqual(fallback);
    expect(await captionFont('Open Sans', { registry: null, cacheDir, log: () => {}, pins })).toEqual(fallback);
    expect(requests.length).toBe(before);
    expect(readdirSync(fallback.dir)).toEqual(['DejaVuSans-Bold.ttf']);
  });

  it('pins the families the profile offers, each at a version with a sha512 integrity (issue 39, item 9)', () => {
    const pinned = Object.entries(pinnedPackages as CaptionFontPins);
    expect(pinned.length).toBeGreaterThan(1000);
    for (const [family, pin] of pinned) {
      expect(googleFontFamilies, family).toContain(family);
      expect(pin.version, family).toMatch(/^\d+\.\d+\.\d+$/);
      expect(pin.integrity, family).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
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
