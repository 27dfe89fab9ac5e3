// The worker opens a subscriber's file only as what its slot says: an HLS playlist or a concat
// script named episode.mp4 or logo.png must not make ffmpeg read another file on the worker's
// disk (here a magenta video beside it, named by its absolute path).
import { ProcessingFailure } from '../failure.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpeg, currentMediaTools, inputArgs, probe, probeImage } from './ffmpeg.ts';
import { renderEpisode } from '../../tests/support/render-episode.ts';

let dir: string;
let secret: string;
let episode: string;
const file = (name: string) => path.join(dir, name);

function make(args: string[]): void {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args]);
  if (result.status !== 0) throw new Error(result.stderr.toString());
}

/**
 * Bytes that name the file `target` in each format ffmpeg would follow: a playlist by its
 * absolute path, a concat script by its name beside it (absolute paths are unsafe to concat).
 */
const disguises = (target: string) => ({
  'an HLS playlist': `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\n${target}\n#EXT-X-ENDLIST\n`,
  'a concat script': `ffconcat version 1.0\nfile '${path.basename(target)}'\n`,
});

/** The mean colour of a `w`x`h` crop at (x, y) of the frame at `seconds`. */
function colourAt(video: string, seconds: number, crop: string): number[] {
  const out = spawnSync(currentMediaTools().ffmpeg, [
    '-nostdin',
    '-loglevel',
    'error',
    '-ss',
    String(seconds),
    '-i',
    video,
    '-frames:v',
    '1',
    '-vf',
    `crop=${crop},scale=1:1:flags=area`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return [...out.stdout.subarray(0, 3)];
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-inputs-'));
  secret = file('secret.mp4');
  make([
    '-f',
    'lavfi',
    '-i',
    'color=c=magenta:s=320x180:r=10:d=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    secret,
  ]);
  episode = file('episode.mp4');
  make([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x180:r=10:d=2',
    '-f',
    'lavfi',
    '-i',
    'sine=d=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    episode,
  ]);
}, 30_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("inputs are opened with their slot's demuxer only", () => {
  for (const kind of ['an HLS playlist', 'a concat script'] as const) {
    it(`refuses ${kind} named episode.mp4 and logo.png`, async () => {
      const body = disguises(secret)[kind];
      writeFileSync(file('fake-episode.mp4'), body);
      writeFileSync(file('fake-logo.png'), body);
      await expect(probe(file('fake-episode.mp4'))).rejects.toThrow(
        ProcessingFailure.unusableInput('fake-episode.mp4 is not a readable video'),
      );
      await expect(probeImage(file('fake-logo.png'))).rejects.toThrow(
        ProcessingFailure.unusableInput('fake-logo.png is not a readable PNG image'),
      );
      // Even handed straight to ffmpeg (never probed), the fixed demuxer reads no other file.
      await expect(
        ffmpeg([...inputArgs('video', file('fake-episode.mp4')), '-frames:v', '1', '-f', 'null', '-']),
      ).rejects.toThrow(/exited with/);
    });
  }

  it('draws nothing another file holds into the episode when the logo is a playlist', async () => {
    writeFileSync(file('playlist-logo.png'), disguises(secret)['an HLS playlist']);
    const info = await probe(episode);
    const output = file('out.mp4');
    await expect(
      renderEpisode({
        main: { file: episode, info },
        start: 0,
        end: 2,
        logo: file('playlist-logo.png'),
        output,
        settings: { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 },
      }),
    ).rejects.toThrow(/exited with/);
    // A real logo still works: the same call with a PNG draws it top right.
    make(['-f', 'lavfi', '-i', 'color=c=0x00FF00:s=64x64', '-frames:v', '1', file('logo.png')]);
    expect(await probeImage(file('logo.png'))).toEqual({ width: 64, height: 64 });
    await renderEpisode({
      main: { file: episode, info },
      start: 0,
      end: 2,
      logo: file('logo.png'),
      output,
      settings: { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 },
    });
    const [r, g, b] = colourAt(output, 1, '20:20:288:10');
    expect(g).toBeGreaterThan(200);
    expect(r + b).toBeLessThan(80);
  }, 30_000);
});
