// A 1 GiB episode upload through the SPA's own upload code (the Submit New Episode dialog,
// tus-js-client in headless Chromium, through the gateway to local Storage), in the same run:
// - on loopback, against the same browser sending the file in one fetch PUT to a plain Node
//   server (the browser's own ceiling, measured before and after; goal >= 0.9x) and against
//   the anchor a Supabase user would use instead, Uppy with @uppy/tus configured as Supabase's
//   resumable-upload guide shows (bench/upload-anchor/, a bench-only page; goal >= 1.0x);
// - on an emulated link (100 Mbit/s up, 30 ms round trip: bench/lib/shaped-link.ts), the SPA
//   against the link's rate (goal >= 0.9) and against Uppy on the same link (goal >= 1.0x),
//   with the same browser's one PUT over that link beside them. One run each on the link
//   (86 s per upload at the link's rate); BENCH_UPLOAD_LINK=0 skips it (it needs root for tc);
// - a raw loopback HTTP PUT from Node (information), and the tab's memory growth during the
//   SPA's upload (flat: the file is read a chunk at a time).
// BENCH_UPLOAD_DETAIL=1 adds where the time goes: 6 MiB pieces by fetch and by XHR to the plain
// server, raw 6 MiB TUS PATCHes from the page and from Node to Storage. BENCH_CHROMIUM_ARGS
// (space-separated) replaces Chromium's flags, only to show what limits headless.
// Runs its own stack (with the built SPA) on CASTLOOP_TEST_PORT_BASE (default 27300); the link's
// proxy listens on that base + 987.
//   npx tsx bench/episode-upload-browser.ts
import { createReadStream, createWriteStream, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { build } from 'vite';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mib, treeRssBytes } from './lib/process-tree.ts';
import { makeSource, rawPut } from './lib/upload-source.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { shapedLink } from './lib/shaped-link.ts';
import { benchStack } from './lib/stack.ts';
import type { UppyUploadRequest } from './upload-anchor/uppy-supabase.ts';
import type { StackConfig } from '../local/config.ts';

const size = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const CHUNK = 6 * 1024 * 1024;
/** The emulated link: 100 Mbit/s up, 30 ms round trip. */
const LINK = { bitsPerSecond: 100e6, roundTripMs: 30 };
const linkBytesPerSecond = LINK.bitsPerSecond / 8;

/** A plain Node server appending every request body to one file on disk (CORS open for the page). */
async function plainServer(work: string): Promise<{ url: string; close: () => Promise<void> }> {
  const target = path.join(work, 'plain-target.bin');
  await fs.rm(target, { force: true });
  const server = http.createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204, { 'access-control-allow-methods': 'PUT', 'access-control-allow-headers': '*' }).end();
    // Each upload starts the file anew (so measurements do not pile gigabytes on the disk).
    const first = new URL(req.url ?? '/', 'http://x').searchParams.has('start');
    pipeline(req, createWriteStream(target, { flags: first ? 'w' : 'a' })).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/upload`,
    close: async () => {
      server.close();
      await fs.rm(target, { force: true });
    },
  };
}

/** Gives the page the source file as a File (on disk, not read into memory). */
async function fileInPage(page: Page, source: string): Promise<void> {
  // tsx keeps function names with a `__name` helper that pages evaluated into lack.
  await page.evaluate('globalThis.__name ??= (target) => target');
  await page.evaluate(() => {
    if (document.getElementById('bench-source')) return;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-source';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#bench-source').setInputFiles(source);
}

type PieceClient = 'fetch' | 'xhr';

/**
 * Seconds for the page to send the file: whole in one fetch PUT (pieceBytes 0), or in
 * sequential pieces by fetch or XHR; as plain PUTs, or as TUS PATCHes to `tus` (an upload URL
 * and its headers).
 */
async function sendFromPage(page: Page, options: { url: string; pieceBytes: number; client: PieceClient; tusHeaders?: Record<string, string> }): Promise<number> {
  const milliseconds = await page.evaluate(async ({ url, pieceBytes, client, tusHeaders }) => {
    const file = (document.getElementById('bench-source') as HTMLInputElement).files![0];
    const send = (body: Blob, offset: number) => {
      const method = tusHeaders ? 'PATCH' : 'PUT';
      const target = tusHeaders || offset > 0 ? url : `${url}?start`;
      const headers: Record<string, string> = tusHeaders ? { ...tusHeaders, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' } : {};
      if (client === 'fetch') {
        return fetch(target, { method, headers, body }).then((response) => {
          if (!response.ok) throw new Error(`${method} answered ${response.status}`);
        });
      }
      return new Promise<void>((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open(method, target);
        for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
        request.onload = () => (request.status < 300 ? resolve() : reject(new Error(`${method} answered ${request.status}`)));
        request.onerror = () => reject(new Error(`${method} failed`));
        request.send(body);
      });
    };
    const began = performance.now();
    if (pieceBytes === 0) await send(file, 0);
    else for (let offset = 0; offset < file.size; offset += pieceBytes) await send(file.slice(offset, offset + pieceBytes), offset);
    return performance.now() - began;
  }, options);
  return milliseconds / 1000;
}

/** Opens an episode upload of `name` as the user (Storage takes only opened uploads in the episodes bucket). */
async function openUpload(config: StackConfig, token: string, name: string): Promise<void> {
  const response = await fetch(`${config.urls.api}/rest/v1/rpc/open_episode_upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name, bytes: size }),
  });
  if (!response.ok) throw new Error(`opening the upload answered ${response.status}: ${await response.text()}`);
}

/** A fresh TUS upload in the user's folder of the episodes bucket: its URL and the headers to send to it. */
async function createTusUpload(config: StackConfig, token: string, name: string): Promise<{ url: string; headers: Record<string, string> }> {
  await openUpload(config, token, name);
  const b64 = (value: string) => Buffer.from(value).toString('base64');
  const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, apikey: config.anonKey };
  const response = await fetch(`${config.urls.api}/storage/v1/upload/resumable`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(size),
      'upload-metadata': `bucketName ${b64('episodes')},objectName ${b64(name)},contentType ${b64('video/mp4')}`,
    },
  });
  const location = response.headers.get('location');
  if (response.status !== 201 || !location) throw new Error(`TUS create answered ${response.status}`);
  return { url: location, headers };
}

/** Seconds for Node to send the file as sequential 6 MiB TUS PATCHes (Storage's own cost, no browser). */
async function nodeTusPatches(source: string, upload: { url: string; headers: Record<string, string> }): Promise<number> {
  // One kept-alive connection, as a browser's.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const began = performance.now();
  for (let offset = 0; offset < size; offset += CHUNK) {
    const length = Math.min(CHUNK, size - offset);
    await new Promise<void>((resolve, reject) => {
      const req = http.request(upload.url, {
        method: 'PATCH',
        agent,
        headers: { ...upload.headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(length) },
      }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`PATCH answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      createReadStream(source, { start: offset, end: offset + length - 1, highWaterMark: 1024 * 1024 }).pipe(req);
    });
  }
  agent.destroy();
  return (performance.now() - began) / 1000;
}

async function accessToken(config: StackConfig, email: string, password: string): Promise<string> {
  const response = await fetch(`${config.urls.api}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in answered ${response.status}`);
  return body.access_token;
}

/** The Chromium browser process started by this process (the root of its renderers). */
function chromiumPid(): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === process.pid && /chrom/i.test(command)) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

/** The Uppy anchor page's script: bench/upload-anchor/uppy-supabase.ts bundled (not written to disk). */
async function uppyBundle(): Promise<string> {
  const entry = path.join(import.meta.dirname, 'upload-anchor', 'uppy-supabase.ts');
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { write: false, emptyOutDir: false, lib: { entry, formats: ['iife'], name: 'benchUppy', fileName: 'uppy' } },
  });
  const output = (Array.isArray(built) ? built[0] : built) as { output: Array<{ type: string; code?: string }> };
  const chunk = output.output.find((part) => part.type === 'chunk');
  if (!chunk?.code) throw new Error('the Uppy page did not build');
  return chunk.code;
}

interface Subscriber {
  id: string;
  email: string;
  password: string;
}

/**
 * A page of `context` with the Submit New Episode dialog open, signing `user` in first (a
 * context's first page) or not (its session is already there).
 */
async function dialogPage(context: BrowserContext, user?: Subscriber): Promise<Page> {
  const page = await context.newPage();
  if (user) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  } else {
    await page.goto('/');
  }
  await page.getByRole('button', { name: 'Submit New Episode' }).click();
  await page.getByRole('dialog', { name: 'Submit New Episode' }).waitFor();
  return page;
}

/**
 * Seconds for the SPA's dialog to upload `source`, from the file input's change to its success
 * toast in the page, on the page's clock as the Uppy anchor's (the driver's own round trips,
 * 0.3-0.4 s under load, are not the SPA's).
 */
async function spaUpload(page: Page, source: string): Promise<number> {
  const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
  const toast = 'Files Uploaded Successfully!';
  await page.evaluate((text) => {
    const marks: { chosen?: number; done?: number } = {};
    (window as unknown as { benchSpaMarks: typeof marks }).benchSpaMarks = marks;
    document.addEventListener('change', () => (marks.chosen ??= performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (!document.body.textContent?.includes(text)) return;
      marks.done = performance.now();
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, toast);
  await dialog.getByLabel('Choose MP4 files').setInputFiles(source);
  await page.getByText(toast).waitFor({ timeout: 20 * 60 * 1000 });
  const { chosen, done } = await page.evaluate(() => (window as unknown as { benchSpaMarks: { chosen?: number; done?: number } }).benchSpaMarks);
  if (chosen === undefined || done === undefined) throw new Error('the SPA upload was not timed in the page');
  return (done - chosen) / 1000;
}

/**
 * The Uppy anchor page of `from`'s context: a blank page on the web origin (so Storage's CORS
 * lets it in, as the SPA) running the bundled anchor, with the source file chosen.
 */
async function uppyPage(from: Page, script: string, source: string): Promise<Page> {
  const [page] = await Promise.all([from.context().waitForEvent('page'), from.evaluate(() => void window.open('', 'bench-uppy'))]);
  await page.addScriptTag({ content: script });
  await fileInPage(page, source);
  return page;
}

/** Seconds for the Uppy anchor to upload the chosen file to `objectName`. */
async function uppyUpload(page: Page, request: Omit<UppyUploadRequest, 'file'>): Promise<number> {
  const milliseconds = await page.evaluate(async (options) => {
    const file = (document.getElementById('bench-source') as HTMLInputElement).files![0];
    const began = performance.now();
    await (window as unknown as { benchUppyUpload: (request: UppyUploadRequest) => Promise<void> }).benchUppyUpload({ ...options, file });
    return performance.now() - began;
  }, request);
  return milliseconds / 1000;
}

const rate = (seconds: number) => size / seconds / 1024 / 1024;
const mibps = (seconds: number) => `${rate(seconds).toFixed(0)} MiB/s`;
const mbps = (seconds: number) => `${(size / seconds / 1e6).toFixed(2)} MB/s`;
const line = (label: string, seconds: number) => console.log(`  ${label}: ${seconds.toFixed(2)} s, ${mibps(seconds)} (${mbps(seconds)})`);

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27300, 'episode-upload');
  const work = path.join(config.dataDir, 'bench');
  // Where the time goes, each measured once more in the same run.
  const detail = process.env.BENCH_UPLOAD_DETAIL === '1';
  const onLink = process.env.BENCH_UPLOAD_LINK !== '0';
  // Replaces the flags only to show what limits headless: a user's browser runs with none of them.
  const chromiumArgs = process.env.BENCH_CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
  const linkPort = Number(process.env.CASTLOOP_TEST_PORT_BASE) + 987;

  const stack = await startStack(config, { reset: true, web: 'preview' });
  let plain: Awaited<ReturnType<typeof plainServer>> | undefined;
  let link: Awaited<ReturnType<typeof shapedLink>> | undefined;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
    await fs.mkdir(work, { recursive: true });
    const source = path.join(work, 'episode.mp4');
    await makeSource(source, size);
    const { createUser } = await import('../tests/support/users.ts');
    const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
    const token = await accessToken(config, user.email, user.password);
    const anchorScript = await uppyBundle();
    const anchor = async (objectName: string) => {
      await openUpload(config, token, objectName);
      return { supabaseUrl: config.urls.api, anonKey: config.anonKey, accessToken: token, bucketName: 'episodes', objectName };
    };

    const rawSeconds = Math.min(await rawPut(work, source, size), await rawPut(work, source, size));

    // Loopback. The browser's ceiling is measured before and after the uploads (the machine's load drifts).
    const page = await dialogPage(await browser.newContext({ baseURL: config.urls.web }), user);
    plain = await plainServer(work);
    await fileInPage(page, source);
    const ceilingBefore = await sendFromPage(page, { url: plain.url, pieceBytes: 0, client: 'fetch' });

    const pid = chromiumPid();
    const heap = () => page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
    const idleTree = pid ? treeRssBytes(pid) : 0;
    const idleHeap = await heap();
    let peakTree = idleTree;
    let peakHeap = idleHeap;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        if (pid) peakTree = Math.max(peakTree, treeRssBytes(pid));
        peakHeap = Math.max(peakHeap, await heap().catch(() => 0));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const spaFirst = await spaUpload(page, source);
    sampling = false;
    await sampler;
    // SPA, Uppy, Uppy, SPA: neither always follows the other's disk writeback; best of 2 each.
    const uppy = await uppyPage(page, anchorScript, source);
    const uppyRuns = [await uppyUpload(uppy, await anchor(`${user.id}/bench-uppy-loopback-1/episode.mp4`)), await uppyUpload(uppy, await anchor(`${user.id}/bench-uppy-loopback-2/episode.mp4`))];
    await uppy.close();
    const spaRuns = [spaFirst, await spaUpload(await dialogPage(page.context()), source)];
    const spaSeconds = Math.min(...spaRuns);
    const uppySeconds = Math.min(...uppyRuns);

    const ceilingAfter = await sendFromPage(page, { url: plain.url, pieceBytes: 0, client: 'fetch' });
    const ceilingSeconds = Math.min(ceilingBefore, ceilingAfter);
    const pieces: Array<[string, number]> = [];
    if (detail) {
      pieces.push(['Chromium, sequential 6 MiB fetch PUTs to the plain server', await sendFromPage(page, { url: plain.url, pieceBytes: CHUNK, client: 'fetch' })]);
      pieces.push(['Chromium, sequential 6 MiB XHR PUTs to the plain server', await sendFromPage(page, { url: plain.url, pieceBytes: CHUNK, client: 'xhr' })]);
      pieces.push(['Chromium, sequential 48 MiB fetch PUTs (per-request cost)', await sendFromPage(page, { url: plain.url, pieceBytes: 8 * CHUNK, client: 'fetch' })]);
      const viaPage = await createTusUpload(config, token, `${user.id}/bench-page/episode.mp4`);
      pieces.push(['Chromium, raw 6 MiB TUS PATCHes by fetch to Storage (no tus-js-client)', await sendFromPage(page, { url: viaPage.url, pieceBytes: CHUNK, client: 'fetch', tusHeaders: viaPage.headers })]);
      const viaNode = await createTusUpload(config, token, `${user.id}/bench-node/episode.mp4`);
      pieces.push(['Node, 6 MiB TUS PATCHes to Storage (Storage alone, no browser)', await nodeTusPatches(source, viaNode)]);
    }
    await page.context().close();

    // The emulated link: a fresh context whose every request goes through it.
    let onLinkFigures: { put: number; spa: number; uppy: number } | null = null;
    if (onLink) {
      link = await shapedLink(linkPort, LINK);
      const linkPage = await dialogPage(await browser.newContext({ baseURL: config.urls.web, proxy: link.proxy }), user);
      await fileInPage(linkPage, source);
      const put = await sendFromPage(linkPage, { url: plain.url, pieceBytes: 0, client: 'fetch' });
      const spa = await spaUpload(linkPage, source);
      const uppy = await uppyUpload(await uppyPage(linkPage, anchorScript, source), await anchor(`${user.id}/bench-uppy-link/episode.mp4`));
      onLinkFigures = { put, spa, uppy };
      if (detail) {
        pieces.push(['On the link: Chromium, sequential 6 MiB fetch PUTs to the plain server', await sendFromPage(linkPage, { url: plain.url, pieceBytes: CHUNK, client: 'fetch' })]);
        const viaLink = await createTusUpload(config, token, `${user.id}/bench-page-link/episode.mp4`);
        pieces.push(['On the link: Chromium, raw 6 MiB TUS PATCHes by fetch to Storage (no tus-js-client)', await sendFromPage(linkPage, { url: viaLink.url, pieceBytes: CHUNK, client: 'fetch', tusHeaders: viaLink.headers })]);
      }
    }

    console.log(`upload of ${mib(size)} on loopback`);
    line('raw HTTP PUT (Node client -> plain Node server writing to disk), best of 2', rawSeconds);
    line('Chromium alone, one fetch PUT of the whole file to the plain server, before the uploads', ceilingBefore);
    line('Chromium alone, one fetch PUT of the whole file to the plain server, after the uploads', ceilingAfter);
    spaRuns.forEach((seconds, i) => line(`SPA dialog in headless Chromium (tus-js-client, 6 MiB chunks, via gateway to Storage), run ${i + 1}`, seconds));
    uppyRuns.forEach((seconds, i) => line(`Uppy + @uppy/tus as in Supabase's guide, same browser and Storage, run ${i + 1}`, seconds));
    console.log(`  tab memory: Chromium process tree RSS idle ${mib(idleTree)}, peak during upload ${mib(peakTree)}; JS heap idle ${mib(idleHeap)}, peak ${mib(peakHeap)}`);
    if (onLinkFigures) {
      console.log(`upload of ${mib(size)} on the emulated link (${LINK.bitsPerSecond / 1e6} Mbit/s = ${(linkBytesPerSecond / 1e6).toFixed(2)} MB/s up, ${LINK.roundTripMs} ms round trip)`);
      line('Chromium alone, one fetch PUT of the whole file to the plain server', onLinkFigures.put);
      line('SPA dialog', onLinkFigures.spa);
      line('Uppy + @uppy/tus as in Supabase\'s guide', onLinkFigures.uppy);
    }
    if (pieces.length > 0) console.log('where the time goes');
    for (const [label, seconds] of pieces) line(label, seconds);

    const flags = process.env.BENCH_CHROMIUM_ARGS ? `; Chromium flags: ${chromiumArgs.join(' ')}` : '';
    const MiB = 1024 * 1024;
    const linkRows = (figures: { put: number; spa: number; uppy: number }): Row[] => [
      {
        bench: 'browser upload',
        figure: `${mib(size)} via the SPA dialog on the emulated link / the link's rate`,
        value: size / figures.spa / linkBytesPerSecond,
        unit: 'x',
        budget: { limit: 0.9, kind: 'min' },
        detail: `${mbps(figures.spa)} of ${(linkBytesPerSecond / 1e6).toFixed(2)} MB/s (${LINK.bitsPerSecond / 1e6} Mbit/s, ${LINK.roundTripMs} ms round trip; one run)`,
      },
      {
        bench: 'browser upload',
        figure: 'SPA dialog / Uppy + @uppy/tus as in Supabase\'s guide, on the emulated link',
        value: figures.uppy / figures.spa,
        unit: 'x',
        budget: { limit: 1, kind: 'min' },
        detail: `${mbps(figures.spa)} vs ${mbps(figures.uppy)} (one run each)`,
      },
      {
        bench: 'browser upload',
        figure: 'the same Chromium\'s one fetch PUT of the whole file on the emulated link / the link\'s rate',
        value: size / figures.put / linkBytesPerSecond,
        unit: 'x',
        detail: `${mbps(figures.put)}: what the emulated link gives one request; the SPA is ${(figures.put / figures.spa).toFixed(2)}x of it`,
      },
    ];
    return [
      {
        bench: 'browser upload',
        figure: 'SPA dialog on loopback / the same Chromium\'s one fetch PUT of the whole file (its ceiling)',
        value: ceilingSeconds / spaSeconds,
        unit: 'x',
        budget: { limit: 0.9, kind: 'min' },
        detail: `${mibps(spaSeconds)} (best of 2); ceiling ${mibps(ceilingBefore)} before, ${mibps(ceilingAfter)} after the uploads (best taken)${flags}`,
      },
      {
        bench: 'browser upload',
        figure: 'SPA dialog / Uppy + @uppy/tus as in Supabase\'s guide, on loopback',
        value: uppySeconds / spaSeconds,
        unit: 'x',
        budget: { limit: 1, kind: 'min' },
        detail: `${mibps(spaSeconds)} vs ${mibps(uppySeconds)} (best of 2 each, run as SPA, Uppy, Uppy, SPA; runs ${spaRuns.map(mibps).join(', ')} vs ${uppyRuns.map(mibps).join(', ')})`,
      },
      ...(onLinkFigures ? linkRows(onLinkFigures) : []),
      {
        bench: 'browser upload',
        figure: `${mib(size)} via the SPA dialog on loopback / raw Node loopback PUT`,
        value: rawSeconds / spaSeconds,
        unit: 'x',
        detail: `${mibps(spaSeconds)} vs ${mibps(rawSeconds)} (raw: best of 2; swings with the disk's writeback, see decisions.md)`,
      },
      {
        bench: 'browser upload',
        figure: 'tab JS heap growth during the upload',
        value: (peakHeap - idleHeap) / MiB,
        unit: 'MiB',
        detail: `idle ${mib(idleHeap)}, peak ${mib(peakHeap)}`,
      },
      {
        bench: 'browser upload',
        figure: 'Chromium process tree RSS growth during the upload',
        value: (peakTree - idleTree) / MiB,
        unit: 'MiB',
        detail: pid ? `idle ${mib(idleTree)}, peak ${mib(peakTree)}` : 'Chromium process not found',
      },
      ...pieces.map(([label, seconds]): Row => ({
        bench: 'browser upload (detail)',
        figure: label,
        value: rate(seconds),
        unit: 'MiB/s',
        detail: `${seconds.toFixed(2)} s; the SPA dialog ${mibps(spaSeconds)}`,
      })),
    ];
  } finally {
    await link?.close();
    await plain?.close();
    await browser?.close();
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
