// A 1 GiB episode upload through the SPA's own upload code (the Submit New Episode dialog,
// tus-js-client in headless Chromium, through the gateway to local Storage) against a raw
// loopback HTTP PUT of the same file to a plain Node server writing to disk. Goal: >= 0.8x the
// raw rate, and the browser's memory flat (the file is read a chunk at a time). For reference,
// the browser's own ceiling: the same file sent by Chromium alone as sequential 6 MiB PUTs to
// the plain server (what any single TUS upload in 6 MiB chunks can reach in this browser).
// Runs its own stack (with the built SPA) on CASTLOOP_TEST_PORT_BASE (default 27300).
//   npx tsx bench/episode-upload-browser.ts
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { chromium, type Page } from 'playwright-core';
import { mib, treeRssBytes } from './lib/process-tree.ts';
import { runAlone, type Row } from './lib/rows.ts';

const size = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);

async function makeSource(file: string): Promise<void> {
  const block = randomBytes(16 * 1024 * 1024);
  const out = createWriteStream(file);
  for (let written = 0; written < size; written += block.length) {
    if (!out.write(block.subarray(0, Math.min(block.length, size - written)))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

async function rawPut(work: string, source: string): Promise<number> {
  const target = path.join(work, 'raw-target.bin');
  const server = http.createServer((req, res) => {
    pipeline(req, createWriteStream(target)).then(
      () => res.writeHead(200).end('ok'),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const began = performance.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: '/upload', headers: { 'content-length': String(size) } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`raw PUT answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      createReadStream(source, { highWaterMark: 1024 * 1024 }).pipe(req);
    });
    return (performance.now() - began) / 1000;
  } finally {
    server.close();
    await fs.rm(target, { force: true });
  }
}

/** Seconds for the page to PUT `source` to a plain Node server in sequential 6 MiB blob slices. */
async function chromiumChunkedPut(work: string, page: Page, source: string): Promise<number> {
  const target = path.join(work, 'chunked-target.bin');
  const server = http.createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204, { 'access-control-allow-methods': 'PUT' }).end();
    pipeline(req, createWriteStream(target, { flags: 'a' })).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-chunked-source';
      input.hidden = true;
      document.body.append(input);
    });
    await page.locator('#bench-chunked-source').setInputFiles(source);
    const milliseconds = await page.evaluate(async ({ url, chunk }) => {
      const file = (document.getElementById('bench-chunked-source') as HTMLInputElement).files![0];
      const began = performance.now();
      for (let offset = 0; offset < file.size; offset += chunk) {
        await new Promise<void>((resolve, reject) => {
          const request = new XMLHttpRequest();
          request.open('PUT', url);
          request.onload = () => (request.status === 204 ? resolve() : reject(new Error(`chunk PUT answered ${request.status}`)));
          request.onerror = () => reject(new Error('chunk PUT failed'));
          request.send(file.slice(offset, offset + chunk));
        });
      }
      return performance.now() - began;
    }, { url: `http://127.0.0.1:${port}/upload`, chunk: 6 * 1024 * 1024 });
    return milliseconds / 1000;
  } finally {
    server.close();
    await fs.rm(target, { force: true });
  }
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

const rate = (seconds: number) => size / seconds / 1024 / 1024;

export async function bench(): Promise<Row[]> {
  process.env.CASTLOOP_TEST_PORT_BASE ??= '27300';
  process.env.CASTLOOP_DATA_DIR ??= '.local-data/bench-episode-upload';
  const { loadConfig } = await import('../local/config.ts');
  const { startStack } = await import('../local/stack.ts');
  const config = loadConfig('test');
  const work = path.join(config.dataDir, 'bench');

  const stack = await startStack(config, { reset: true, web: 'preview' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    await fs.mkdir(work, { recursive: true });
    const source = path.join(work, 'episode.mp4');
    await makeSource(source);
    const { createUser } = await import('../tests/support/users.ts');
    const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });

    await rawPut(work, source);
    const rawSeconds = Math.min(await rawPut(work, source), await rawPut(work, source));

    const page = await (await browser.newContext({ baseURL: config.urls.web })).newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    await dialog.waitFor();

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
    const began = performance.now();
    await dialog.getByLabel('Choose MP4 files').setInputFiles(source);
    await page.getByText('Files Uploaded Successfully!').waitFor({ timeout: 15 * 60 * 1000 });
    const browserSeconds = (performance.now() - began) / 1000;
    sampling = false;
    await sampler;
    const chromiumSeconds = await chromiumChunkedPut(work, page, source);

    console.log(`upload of ${mib(size)} on loopback`);
    console.log(`  raw HTTP PUT (Node client -> plain Node server writing to disk), best of 2: ${rawSeconds.toFixed(2)} s, ${rate(rawSeconds).toFixed(0)} MiB/s`);
    console.log(`  SPA dialog in headless Chromium (tus-js-client, 6 MiB chunks, via gateway to Storage): ${browserSeconds.toFixed(2)} s, ${rate(browserSeconds).toFixed(0)} MiB/s`);
    console.log(`  throughput ratio SPA / raw: ${(rate(browserSeconds) / rate(rawSeconds)).toFixed(2)} (goal >= 0.8)`);
    console.log(`  Chromium alone, sequential 6 MiB blob PUTs to the plain server: ${chromiumSeconds.toFixed(2)} s, ${rate(chromiumSeconds).toFixed(0)} MiB/s`);
    console.log(`  throughput ratio SPA / Chromium alone: ${(rate(browserSeconds) / rate(chromiumSeconds)).toFixed(2)} (the part Storage and the SPA cost)`);
    console.log(`  Chromium process tree RSS: idle ${mib(idleTree)}, peak during upload ${mib(peakTree)}`);
    console.log(`  tab JS heap: idle ${mib(idleHeap)}, peak during upload ${mib(peakHeap)}`);
    return [
      {
        bench: 'browser upload',
        figure: `${mib(size)} via the SPA dialog (Chromium, TUS) / raw loopback PUT`,
        value: rate(browserSeconds) / rate(rawSeconds),
        unit: 'x',
        budget: { limit: 0.8, kind: 'min' },
        detail: `${rate(browserSeconds).toFixed(0)} vs ${rate(rawSeconds).toFixed(0)} MiB/s; Chromium alone ${rate(chromiumSeconds).toFixed(0)} MiB/s; tab heap peak ${mib(peakHeap)}`,
      },
    ];
  } finally {
    await browser.close();
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
