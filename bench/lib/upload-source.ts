// The upload benches' source file and the ceiling they are measured against: one plain HTTP PUT
// of the whole file to a server that only writes it to disk.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** `size` random bytes in `file` (incompressible, as a video is). */
export async function makeSource(file: string, size: number): Promise<void> {
  const block = randomBytes(16 * 1024 * 1024);
  const out = createWriteStream(file);
  for (let written = 0; written < size; written += block.length) {
    if (!out.write(block.subarray(0, Math.min(block.length, size - written)))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** One PUT of `source` (`size` bytes) to a local server writing into `work`; its seconds. */
export async function rawPut(work: string, source: string, size: number): Promise<number> {
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
