// Load (issue: performance budgets, item 3). LOAD_CLIENTS (default 100) clients for LOAD_SECONDS
// (default 60) through the gateway, each sending its requests back to back: first the dashboard
// alone (3 of 4 clients cycle its reads /api/episodes, /api/episodes/stats and
// /api/oauth-connections, 1 of 4 calls /api/auth/user, as the dashboard asks for the user once
// per three reads), then LOAD_SIGN_IN_CLIENTS (default 5) of the clients signing in with a
// password instead (a product's traffic has far fewer sign-ins than reads; sign-in is bcrypt
// cost 10 by design, so many at once queue behind each other). Each kind is its own set of
// clients, so its latency is measured on its own; budget per kind: no errors and p99 within
// 10x p50 (the p99 / p50 of every request together is reported too). Then 10 simultaneous TUS uploads of LOAD_UPLOAD_BYTES (default 200 MiB)
// each, downloaded again and compared by sha256; budget: every byte intact.
// Auth's per-address rate limits are off: here every client shares one address.
// Runs its own stack on CASTLOOP_TEST_PORT_BASE (default: the first free from 27600) with a data directory of its own.
//   npx tsx bench/load.ts
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import * as tus from 'tus-js-client';
import type { StackConfig } from '../local/config.ts';
import { cannonMix, type CannonGroup, type CannonRequest, type CannonResult } from './lib/cannon.ts';
import { mib, samplePeak } from './lib/process-tree.ts';
import { runAlone, type Row } from './lib/rows.ts';
import { benchStack, signedInSubscriber } from './lib/stack.ts';

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const clients = Number(process.env.LOAD_CLIENTS ?? 100);
const signInClients = Number(process.env.LOAD_SIGN_IN_CLIENTS ?? 5);
const uploads = Number(process.env.LOAD_UPLOADS ?? 10);
const uploadBytes = Number(process.env.LOAD_UPLOAD_BYTES ?? 200 * 1024 * 1024);

/** Random bytes, `size` of them, as a stream; `digest()` is their sha256 once the stream has ended. */
function randomSource(size: number): { stream: Readable; digest(): string } {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const block = randomBytes(Math.min(1024 * 1024, size - sent));
      sent += block.length;
      hash.update(block);
      this.push(block);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

function tusUpload(config: StackConfig, stream: Readable, objectName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(stream, {
      endpoint: `${config.urls.api}/storage/v1/upload/resumable`,
      chunkSize: 6 * 1024 * 1024,
      retryDelays: null,
      uploadSize: uploadBytes,
      headers: { authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.anonKey, 'x-upsert': 'true' },
      uploadDataDuringCreation: true,
      metadata: { bucketName: 'load', objectName, contentType: 'application/octet-stream' },
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
}

async function downloadDigest(config: StackConfig, objectName: string): Promise<string> {
  const res = await fetch(`${config.urls.api}/storage/v1/object/load/${objectName}`, { headers: { authorization: `Bearer ${config.serviceRoleKey}` } });
  if (!res.ok || !res.body) throw new Error(`download of ${objectName} answered ${res.status}`);
  const hash = createHash('sha256');
  for await (const chunk of res.body) hash.update(chunk);
  return hash.digest('hex');
}

export async function bench(): Promise<Row[]> {
  process.env.CASTLOOP_AUTH_RATE_LIMIT = 'off';
  const { config, startStack } = await benchStack(27600, 'load');
  const stack = await startStack(config, { reset: true, web: 'none', worker: false });
  try {
    const { user, bearer } = await signedInSubscriber();
    const reads: CannonRequest[] = ['episodes', 'episodes/stats', 'oauth-connections'].map((path) => ({ path: `/functions/v1/api/${path}`, headers: bearer }));
    const authUser: CannonRequest = { path: '/functions/v1/api/auth/user', headers: bearer };
    const signIn: CannonRequest = {
      method: 'POST',
      path: '/auth/v1/token?grant_type=password',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    };
    // The dashboard asks for the user once per three reads; its clients are split in that ratio.
    const dashboard = (count: number): CannonGroup[] => [
      { kind: 'reads', connections: count - Math.round(count / 4), requests: reads },
      { kind: '/api/auth/user', connections: Math.round(count / 4), requests: [authUser] },
    ];

    const rows: Row[] = [];
    const mixes: Array<[string, CannonGroup[]]> = [
      ['dashboard only', dashboard(clients)],
      [`with ${signInClients} signing in`, [...dashboard(clients - signInClients), { kind: 'sign-in', connections: signInClients, requests: [signIn] }]],
    ];
    for (const [name, groups] of mixes) {
      const mix = await cannonMix(config.urls.api, groups, { seconds, warmupSeconds: 2 });
      const split = groups.map((group) => `${group.connections} ${group.kind}`).join(', ');
      const figures = (result: CannonResult) => `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.requests} requests, ${result.errors} errors`;
      const label = `${clients} clients ${seconds} s, ${name}`;
      console.log(`${label} (${split}): all ${figures(mix.overall)}`);
      for (const [kind, result] of Object.entries(mix.byKind)) console.log(`  ${kind}: ${figures(result)}`);
      rows.push({
        bench: 'load',
        figure: `${label}: errors`,
        value: mix.overall.errors,
        unit: '',
        budget: { limit: 0, kind: 'max' },
        detail: `clients: ${split}; ${Object.entries(mix.byKind).map(([kind, result]) => `${kind} ${result.errors}`).join(', ')}`,
      });
      for (const [kind, result] of Object.entries(mix.byKind)) {
        rows.push({
          bench: 'load',
          figure: `${label}: ${kind} p99 / p50`,
          value: result.p99Ms / Math.max(result.p50Ms, 1),
          unit: 'x',
          budget: { limit: 10, kind: 'max' },
          detail: `rule on the p50 and p99 of ${kind} alone: ${figures(result)}`,
        });
      }
      rows.push({
        bench: 'load',
        figure: `${label}: every request p99 / p50`,
        value: mix.overall.p99Ms / Math.max(mix.overall.p50Ms, 1),
        unit: 'x',
        detail: `all kinds in one histogram (the rule applies per kind): ${figures(mix.overall)}`,
      });
    }

    const created = await fetch(`${config.urls.api}/storage/v1/bucket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'load', public: false }),
    });
    if (!created.ok) throw new Error(`could not create the load bucket: ${await created.text()}`);
    const memory = samplePeak(process.pid);
    const began = performance.now();
    const sent = await Promise.all(
      Array.from({ length: uploads }, async (_, i) => {
        const source = randomSource(uploadBytes);
        await tusUpload(config, source.stream, `upload-${i}.bin`);
        return source.digest();
      }),
    );
    const uploadSeconds = (performance.now() - began) / 1000;
    const peak = memory.stop();
    let intact = 0;
    for (const [i, digest] of sent.entries()) if ((await downloadDigest(config, `upload-${i}.bin`)) === digest) intact += 1;
    rows.push({
      bench: 'load',
      figure: `${uploads} simultaneous ${mib(uploadBytes)} TUS uploads, sha256 intact`,
      value: intact,
      unit: `of ${uploads}`,
      budget: { limit: uploads, kind: 'min' },
      detail: `${uploadSeconds.toFixed(1)} s, ${((uploads * uploadBytes) / 1024 / 1024 / uploadSeconds).toFixed(0)} MiB/s together; peak RSS of the stack and client ${mib(peak)}`,
    });
    return rows;
  } finally {
    await stack.stop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, bench);
