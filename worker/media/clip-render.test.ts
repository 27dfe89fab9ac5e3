// ffmpeg-level checks of a clip's captions, framing on the speaker and logo, on a few seconds of
// video. The face is a crop of scikit-image's astronaut.png (NASA, public domain; Debian
// python3-skimage), tests/fixtures/media/astronaut-face.jpg: a drawn oval would not pass for a face.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionScript } from './captions.ts';
import { currentMediaTools, probe, useMediaTools } from './ffmpeg.ts';
import { captionFont } from './fonts.ts';
import { renderClip } from './render.ts';
import { cropExpression, detectFaces, speakerPath } from './speaker-framing.ts';
import type { BrandColours } from './styles.ts';

const FACE = path.join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'media', 'astronaut-face.jpg');
const colours: BrandColours = { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' };
const settings = { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 };
let dir: string;
let faceVideo: string;
let plainVideo: string;

function run(args: string[]): Buffer {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args], { maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stdout;
}

/** The pixels of a region of the frame at `seconds`, as [r, g, b]. */
function pixels(file: string, seconds: number, crop: string): [number, number, number][] {
  const out = run(['-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=${crop}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  return Array.from({ length: out.length / 3 }, (_, i) => [out[3 * i], out[3 * i + 1], out[3 * i + 2]]);
}

const whiteish = (p: [number, number, number][]) => p.filter(([r, g, b]) => r > 215 && g > 215 && b > 215).length;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-clip-render-'));
  faceVideo = path.join(dir, 'face.mp4');
  plainVideo = path.join(dir, 'plain.mp4');
  const audio = ['-f', 'lavfi', '-i', 'sine=f=220:d=3'];
  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'];
  // A 16:9 picture with the face near its left edge (x 20..230 of 640): off-centre.
  run(['-f', 'lavfi', '-i', 'color=c=0x4080C0:s=640x360:r=10:d=3', '-loop', '1', '-i', FACE, ...audio,
    '-filter_complex', '[1:v]scale=210:240[face];[0:v][face]overlay=20:60:shortest=1[v]', '-map', '[v]', '-map', '2:a', ...h264, faceVideo]);
  run(['-f', 'lavfi', '-i', 'color=c=0x4080C0:s=640x360:r=10:d=3', ...audio, ...h264, plainVideo]);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('framing on the speaker', () => {
  it('finds a real face off-centre and keeps it inside the 9:16 crop all along', async () => {
    // Two moments of the video in one detector run.
    const [samples, second] = await detectFaces(faceVideo, { width: 640, height: 360 }, [{ start: 0, end: 3 }, { start: 1, end: 2 }], dir, () => {});
    expect(samples).not.toBeNull();
    expect(second?.frames.length).toBe(2);
    const seen = samples!.frames.filter((f) => f.length > 0);
    expect(seen.length).toBeGreaterThanOrEqual(samples!.frames.length * 0.8);
    const cropWidth = 202;
    const keys = speakerPath(samples!, 640, cropWidth);
    expect(keys).not.toBeNull();
    for (const faces of seen) {
      const face = faces[0];
      // The detected face is where it was placed...
      expect(face.x).toBeGreaterThanOrEqual(20);
      expect(face.x + face.w).toBeLessThanOrEqual(230);
      // ...and inside the crop (a centred crop, 219..421, would have missed it).
      for (const key of keys!) {
        expect(key.x).toBeLessThanOrEqual(face.x);
        expect(key.x + cropWidth).toBeGreaterThanOrEqual(face.x + face.w);
      }
    }
  }, 60_000);

  it('finds no face in a picture without one: the clip keeps the whole picture', async () => {
    const [samples] = await detectFaces(plainVideo, { width: 640, height: 360 }, [{ start: 0, end: 3 }], dir, () => {});
    expect(samples?.frames.length).toBe(6);
    expect(speakerPath(samples!, 640, 202)).toBeNull();
  }, 60_000);

  it('answers the next clip after one is aborted, and without a detector keeps the whole picture', async () => {
    const ranges = [{ start: 0, end: 3 }];
    const stopped = new AbortController();
    const aborted = detectFaces(faceVideo, { width: 640, height: 360 }, ranges, dir, () => {}, stopped.signal);
    stopped.abort();
    await expect(aborted).rejects.toThrow();
    const [samples] = await detectFaces(faceVideo, { width: 640, height: 360 }, ranges, dir, () => {});
    expect(samples?.frames.filter((f) => f.length > 0).length).toBeGreaterThanOrEqual(5);

    const logged: string[] = [];
    const configured = currentMediaTools();
    useMediaTools({ ...configured, python: path.join(dir, 'no-python') });
    try {
      expect(await detectFaces(faceVideo, { width: 640, height: 360 }, ranges, dir, (line) => logged.push(line))).toEqual([null]);
    } finally {
      useMediaTools(configured);
    }
    expect(logged).toEqual([expect.stringMatching(/^no speaker framing \(the face detector failed\): .*ENOENT/)]);
  }, 60_000);
});

describe('a rendered clip', () => {
  it('shows the spoken words as captions, framed on the face, with the logo', async () => {
    const font = await captionFont(null, { registry: null, cacheDir: path.join(dir, 'fonts'), log: () => {} });
    const assFile = path.join(dir, 'c.ass');
    writeFileSync(assFile, captionScript({ words: [{ text: 'HELLO', start: 0, end: 1.8 }, { text: 'WORLD', start: 2, end: 2.9 }], style: 'DEFAULT', colours, fontFamily: font.family, width: 180, height: 320 }));
    const logo = path.join(dir, 'logo.png');
    run(['-f', 'lavfi', '-i', 'color=c=0x00FF00:s=64x64', '-frames:v', '1', logo]);
    const main = { file: faceVideo, info: await probe(faceVideo) };
    const framed = path.join(dir, 'framed.mp4');
    await renderClip({
      main, start: 0, end: 3, frame: { look: 'DEFAULT', aspect: 'portrait' }, colours, logo, output: framed, settings,
      text: { captions: { assFile, fontsDir: font.dir }, framing: { width: 202, x: cropExpression([{ t: 0, x: 9 }, { t: 2.5, x: 9 }, { t: 2.9, x: 20 }]) } },
    });
    expect(await probe(framed)).toMatchObject({ video: { width: 180, height: 320 } });
    // The caption around 70% of the height (y 224): the spoken word in the accent (amber), the next in white.
    const caption = pixels(framed, 1, '180:40:0:204');
    expect(caption.filter(([r2, g2, b2]) => r2 > 200 && g2 > 120 && g2 < 190 && b2 < 80).length).toBeGreaterThan(30);
    expect(whiteish(caption)).toBeGreaterThan(30);
    // Framed: the picture fills the frame (the video's blue at the top, not the primary), the face in the middle.
    const [r, g, b] = pixels(framed, 1, '20:20:10:20')[0];
    expect(Math.abs(r - 0x40) + Math.abs(g - 0x80) + Math.abs(b - 0xc0)).toBeLessThan(40);
    // The logo: green, top right.
    expect(pixels(framed, 1, '20:20:130:40').filter(([r2, g2, b2]) => g2 > 200 && r2 < 80 && b2 < 80).length).toBeGreaterThan(300);

    // The same moment without words has no caption there.
    const bare = path.join(dir, 'bare.mp4');
    await renderClip({ main: { file: plainVideo, info: await probe(plainVideo) }, start: 0, end: 3, frame: { look: 'DEFAULT', aspect: 'portrait' }, colours, output: bare, settings });
    expect(whiteish(pixels(bare, 1, '180:40:0:204'))).toBe(0);
  }, 60_000);
});

describe('a clip titled by the subscriber', () => {
  /** Columns of the top band (CREATIVE's title area) holding the title's light pixels: [first, last], or null. */
  async function titleColumns(title: string, name: string): Promise<[number, number] | null> {
    const textFile = path.join(dir, `${name}.txt`);
    writeFileSync(textFile, title);
    const output = path.join(dir, `${name}.mp4`);
    // Black on a white primary band, so the title is the only dark there.
    const bandColours: BrandColours = { primary: 'FFFFFF', secondary: '000000', tertiary: '000000' };
    await renderClip({
      main: { file: plainVideo, info: await probe(plainVideo) }, start: 0, end: 3, frame: { look: 'CREATIVE', aspect: 'portrait' }, colours: bandColours, output, settings,
      text: { title: { textFile, length: [...title].length } },
    });
    // CREATIVE's band is the top tenth (32 px of 320).
    const band = pixels(output, 1, '180:28:0:2');
    const columns = new Set<number>();
    band.forEach(([r, g, b], i) => {
      if (r < 100 && g < 100 && b < 100) columns.add(i % 180);
    });
    return columns.size ? [Math.min(...columns), Math.max(...columns)] : null;
  }

  it('burns "%" in a title as it is written: no expansion of the worker\'s clock, no vanished title (issue 39, item 3)', async () => {
    // drawtext expands %{...} by default: each "%{localtime}" became the worker's date and time
    // (19 characters in the room sized for 12, so the title ran off both edges), and "100% done"
    // was a parse error that left no title at all.
    for (const [name, title] of [['clock', '%{localtime} %{localtime}'], ['percent', '100% done']]) {
      const columns = await titleColumns(title, name);
      expect(columns, title).not.toBeNull();
      const [first, last] = columns!;
      expect(first, title).toBeGreaterThan(3);
      expect(last, title).toBeLessThan(176);
    }
  }, 60_000);
});
