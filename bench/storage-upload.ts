// Local Storage upload throughput and memory: 1 GiB by TUS (tus-js-client, 6 MB chunks, as
// Supabase documents) through the gateway, against a raw HTTP PUT of the same bytes to a plain
// Node server on loopback that writes them to disk. Budget: TUS >= 0.9 x raw, memory flat.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27000) with a data directory of its own.
//   npx tsx bench/storage-upload.ts
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { mib, treeRssBytes } from './lib/process-tree.ts';
import { makeSource, rawPut } from './lib/upload-source.ts';
import { median, runAlone, type Row } from './lib/rows.ts';
import { benchStack } from './lib/stack.ts';
import type { StackConfig } from '../local/config.ts';

const GiB = 1024 ** 3;
const size = Number(process.env.BENCH_UPLOAD_BYTES ?? GiB);
const chunkSize = 6 * 1024 * 1024;
const rounds = 3;

interface Measured {
  seconds: number;
  peakSelf: number;
  peakTree: number;
}

/** Time and peak RSS (this process, and its whole tree: Postgres, PostgREST, Deno...) of `run`. */
async function measured(run: () => Promise<unknown>): Promise<Measured> {
  let peakSelf = process.memoryUsage().rss;
  let peakTree = treeRssBytes(process.pid);
  const timer = setInterval(() => {
    peakSelf = Math.max(peakSelf, process.memoryUsage().rss);
    peakTree = Math.max(peakTree, treeRssBytes(process.pid));
  }, 100);
  const began = process.hrtime.bigint();
  try {
    await run();
    return { seconds: Number(process.hrtime.bigint() - began) / 1e9, peakSelf, peakTree };
  } finally {
    clearInterval(timer);
  }
}

function tusUpload(config: StackConfig, source: string, objectName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(source), {
      endpoint: `${config.urls.api}/storage/v1/upload/resumable`,
      chunkSize,
      retryDelays: null,
      uploadSize: size,
      headers: { authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.anonKey, 'x-upsert': 'true' },
      uploadDataDuringCreation: true,
      metadata: { bucketName: 'bench', objectName, contentType: 'application/octet-stream', cacheControl: '3600' },
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
}

const rate = (seconds: number) => size / seconds / 1024 / 1024;
const rates = (runs: Measured[]) => runs.map((run) => rate(run.seconds).toFixed(0)).join(', ');

export async function bench(): Promise<Row[]> {
  const { config, startStack } = await benchStack(27000, 'storage');
  const work = path.join(config.dataDir, 'bench');

  const stack = await startStack(config, { reset: true, web: 'none' });
  try {
    await fs.mkdir(work, { recursive: true });
    const created = await fetch(`${config.urls.api}/storage/v1/bucket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', public: false }),
    });
    if (!created.ok) throw new Error(`could not create the bench bucket: ${await created.text()}`);

    const source = path.join(work, 'source.bin');
    await makeSource(source, size);
    const idleSelf = process.memoryUsage().rss;
    const idleTree = treeRssBytes(process.pid);

    // Warm the page cache and the code paths with one round of each, then measure alternating
    // rounds (disk writeback makes single runs noisy) and keep the medians.
    await rawPut(work, source, size);
    await tusUpload(config, source, 'warm.bin');
    const raws: Measured[] = [];
    const tuses: Measured[] = [];
    for (let round = 0; round < rounds; round++) {
      raws.push(await measured(() => rawPut(work, source, size)));
      tuses.push(await measured(() => tusUpload(config, source, 'measured.bin')));
    }
    const rawSeconds = median(raws.map((run) => run.seconds));
    const tusSeconds = median(tuses.map((run) => run.seconds));
    const ratio = rate(tusSeconds) / rate(rawSeconds);
    console.log(`upload of ${mib(size)} on loopback, both writing to disk; median of ${rounds} rounds`);
    console.log(`  raw HTTP PUT to a plain Node server: ${rawSeconds.toFixed(2)} s, ${rate(rawSeconds).toFixed(0)} MiB/s (rounds: ${rates(raws)} MiB/s)`);
    console.log(`  TUS, tus-js-client ${chunkSize / 1024 / 1024} MB chunks, via gateway: ${tusSeconds.toFixed(2)} s, ${rate(tusSeconds).toFixed(0)} MiB/s (rounds: ${rates(tuses)} MiB/s)`);
    console.log(`  throughput ratio TUS / raw: ${ratio.toFixed(2)} (budget >= 0.9)`);
    console.log('memory (RSS; this process hosts the client, the gateway and storage)');
    console.log(`  before uploads: process ${mib(idleSelf)}, process tree ${mib(idleTree)}`);
    console.log(`  peak during raw PUTs: process ${mib(Math.max(...raws.map((run) => run.peakSelf)))}, tree ${mib(Math.max(...raws.map((run) => run.peakTree)))}`);
    console.log(`  peak during TUS uploads: process ${mib(Math.max(...tuses.map((run) => run.peakSelf)))}, tree ${mib(Math.max(...tuses.map((run) => run.peakTree)))}`);
    const roundRatios = raws.map((raw, i) => raw.seconds / tuses[i].seconds);
    return [{
      bench: 'storage upload',
      figure: `${mib(size)} TUS upload via gateway / raw loopback PUT`,
      value: ratio,
      unit: 'x',
      budget: { limit: 0.9, kind: 'min' },
      detail: `${rate(tusSeconds).toFixed(0)} vs ${rate(rawSeconds).toFixed(0)} MiB/s; rounds ${roundRatios.map((r) => r.toFixed(2)).join(', ')}; peak process RSS ${mib(Math.max(...tuses.map((run) => run.peakSelf)))}`,
    }];
  } finally {
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
