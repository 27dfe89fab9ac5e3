// A piece reads the episode over a signed Storage URL (issue 28, worker/pieces.ts): ffmpeg seeks with
// HTTP range requests, so a segment fetches about its share of the file, not all of it, and renders
// the same frames as from a local copy. The server here answers ranges as Storage does (one range
// per request, 206 with Content-Range; tests/contract/storage.test.ts checks the local emulator).
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMediaTools, probe } from './ffmpeg.ts';
import { planEpisode, renderVideoPiece } from './render.ts';
import type { MediaInput } from './ffmpeg.ts';

const settings = { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 };
const SECONDS = 120;
const SEGMENT_SECONDS = 10;
let dir: string;
let main: MediaInput;
let server: http.Server;
let url: string;
/** Bytes the server read from the file for its answers (at least what went over the wire). */
let served = 0;
let requests: string[] = [];

function run(args: string[]): string {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', ...args], { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stdout.toString() + result.stderr.toString();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-ranged-'));
  const file = path.join(dir, 'episode.mp4');
  // As a subscriber's upload may be: the index (moov) at the end, a keyframe every 2 s, with sound.
  // Lossless, so the file (~30 MB) is large beside what a reader's socket takes ahead of a seek
  // (a few MB per request, whatever the file's size).
  run([
    '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=30:d=${SECONDS}`, '-f', 'lavfi', '-i', `sine=f=440:d=${SECONDS}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-g', '60', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
  main = { file, info: await probe(file) };
  const size = statSync(file).size;
  server = http.createServer((req, res) => {
    requests.push(req.headers.range ?? 'whole');
    const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match?.[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
    res.writeHead(match ? 206 : 200, {
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
      ...(match ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    void (async () => {
      // Paced like a real link (64 KiB a millisecond at most, ~500 Mbit/s): on loopback the kernel
      // would otherwise take megabytes ahead of a reader that is about to seek elsewhere.
      for await (const chunk of createReadStream(file, { start, end, highWaterMark: 64 * 1024 })) {
        if (res.destroyed) return;
        served += (chunk as Buffer).length;
        if (!res.write(chunk)) await once(res, 'drain');
        await pause(1);
      }
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/storage/v1/object/sign/episodes/episode.mp4?token=t`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a piece reading the episode over a signed URL', () => {
  it('fetches about its share of the file with range requests, and renders the frames a local copy gives', async () => {
    const layout = planEpisode({ main: main.info, start: 0, end: SECONDS, segmentSeconds: SEGMENT_SECONDS });
    // A segment in the middle: 10 s of the 120 s.
    const piece = layout.video[6];
    expect(piece).toMatchObject({ part: 'main', from: 60, frames: SEGMENT_SECONDS * 30 });
    const [remote, local] = [path.join(dir, 'remote.mp4'), path.join(dir, 'local.mp4')];
    served = 0;
    requests = [];
    await renderVideoPiece({ piece, layout, file: url, output: remote, settings });
    await renderVideoPiece({ piece, layout, file: main.file, output: local, settings });

    const size = statSync(main.file).size;
    // The segment's share is 1/12 of the file: with the index, the stream probe and the socket's
    // read-ahead at each seek it stays well under half (the whole file before).
    expect(served).toBeLessThan(size / 2);
    expect(requests.some((range) => /^bytes=[1-9]\d*-/.test(range))).toBe(true);
    const hashes = (file: string) => run(['-loglevel', 'error', '-i', file, '-map', '0:v', '-f', 'framemd5', '-']).split('\n').filter((l) => l && !l.startsWith('#'));
    const remoteFrames = hashes(remote);
    expect(remoteFrames).toHaveLength(SEGMENT_SECONDS * 30);
    expect(remoteFrames).toEqual(hashes(local));
  }, 60_000);
});
