// The sound track the submission job copies out for the words and the analysis keeps the upload's
// clock: an upload whose sound starts after its picture (a camera's or a phone's may) seeks to the
// same moment in the copy as in the upload itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMediaTools, probe } from './ffmpeg.ts';
import { copySoundTrack } from './render.ts';

let dir: string;

function run(args: string[]): string {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', ...args], { maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stderr.toString();
}

/** Seconds after a seek to `at` (as the analysis seeks) until the first sound that is not silence. */
function firstSoundAfter(file: string, at: number): number {
  const log = run(['-ss', String(at), '-t', '2', '-i', file, '-map', '0:a', '-af', 'silencedetect=noise=-40dB:d=0.1', '-f', 'null', '-']);
  const end = /silence_end: ([\d.]+)/.exec(log);
  if (!end) throw new Error(`no sound after ${at} s in ${file}`);
  return Number(end[1]);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-sound-track-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('copySoundTrack', () => {
  it("keeps the upload's clock when its sound starts after its picture", async () => {
    const upload = path.join(dir, 'upload.mp4');
    // The sound starts 0.5 s after the picture; a tone from 1.5 s of the sound, so 2.0 s of the upload.
    run([
      '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30:d=5',
      '-itsoffset', '0.5', '-f', 'lavfi', '-i', "aevalsrc='if(gte(t,1.5),sin(2*PI*440*t),0)':s=48000:d=4",
      '-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', upload,
    ]);
    const main = { file: upload, info: await probe(upload) };
    const sound = await copySoundTrack(main, path.join(dir, 'sound.mov'));

    const inUpload = firstSoundAfter(upload, 1);
    expect(inUpload).toBeCloseTo(1, 1);
    expect(firstSoundAfter(sound.file, 1)).toBeCloseTo(inUpload, 1);
  });
});
