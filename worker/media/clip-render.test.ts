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
import { framingAspect, type BrandColours } from './styles.ts';

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

describe('the Creative style (issue 42, item 7)', () => {
  const size = { width: 360, height: 640 };
  const big = { ...settings, clipHeight: size.height };
  /** The frame at 1 s as [r, g, b] per pixel, row by row. */
  const frameOf = (file: string) => pixels(file, 1, `${size.width}:${size.height}:0:0`);
  const differs = (a: [number, number, number], b: [number, number, number]) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 60;
  /** Framed on the face (near the source's left edge) as the worker frames each look: the crop's shape is the style's. */
  const framingFor = (look: 'DEFAULT' | 'CREATIVE') => ({ width: Math.round((360 * (framingAspect({ look, aspect: 'portrait' }) ?? 1)) / 2) * 2, x: cropExpression([{ t: 0, x: 9 }]) });

  async function render(look: 'DEFAULT' | 'CREATIVE', source: string, name: string, text: Parameters<typeof renderClip>[0]['text']): Promise<string> {
    const output = path.join(dir, `${name}.mp4`);
    await renderClip({ main: { file: source, info: await probe(source) }, start: 0, end: 3, frame: { look, aspect: 'portrait' }, colours, output, settings: big, text });
    return output;
  }

  /**
   * Where the picture shows: the pixels that differ between the clip of the face video and the
   * clips of its twins (its negative, and each channel moved 64 along, which differ from it even
   * where the negative is as grey), styled alike. The rest (bands, frames, empty colour) is the
   * layout's.
   */
  const areas = new Map<string, Promise<boolean[]>>();
  /** Rendered once per look and framing (three clips each): the checks below ask for each twice. */
  function pictureArea(look: 'DEFAULT' | 'CREATIVE', withFraming: boolean): Promise<boolean[]> {
    const name = `${look}-${withFraming}`;
    const known = areas.get(name);
    if (known) return known;
    const text = withFraming ? { framing: framingFor(look) } : {};
    const area = Promise.all([faceVideo, ...twinVideos].map((source, i) => render(look, source, `${name}-${i}`, text))).then(([a, ...twins]) => {
      const [pa, ...pt] = [a, ...twins].map(frameOf);
      return pa.map((p, i) => pt.some((twin) => differs(p, twin[i])));
    });
    areas.set(name, area);
    return area;
  }

  /** The detected face's height in a rendered clip, as a share of the frame's. */
  async function faceHeight(file: string): Promise<number> {
    const [samples] = await detectFaces(file, size, [{ start: 0.5, end: 2.5 }], dir, () => {});
    const heights = (samples?.frames ?? []).flatMap((faces) => faces.map((f) => f.h));
    expect(heights.length, file).toBeGreaterThan(0);
    return heights.reduce((a, b) => a + b, 0) / heights.length / size.height;
  }

  const twinVideos: string[] = [];
  beforeAll(() => {
    const lut = (expression: string) => `lutrgb=r='${expression}':g='${expression}':b='${expression}'`;
    for (const [name, filter] of [['negative', 'negate'], ['shifted', lut('mod(val+64,256)')]]) {
      const twin = path.join(dir, `${name}.mp4`);
      run(['-i', faceVideo, '-vf', filter, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'copy', twin]);
      twinVideos.push(twin);
    }
  });

  it('fills the frame with the picture, the face as large as in Default, the captions inside the picture', async () => {
    const report: string[] = [];
    for (const withFraming of [true, false]) {
      const area = await pictureArea('CREATIVE', withFraming);
      const layout = 1 - area.filter(Boolean).length / area.length;
      report.push(`${withFraming ? 'framed on the face' : 'whole picture'}: ${(layout * 100).toFixed(1)}% of the frame is layout, not picture`);
      // A thin frame and its accents, no empty third.
      expect(layout, report.join('; ')).toBeLessThan(0.08);
    }

    // The face: Default's size when both are framed on it.
    const framedDefault = await render('DEFAULT', faceVideo, 'default-framed', { framing: framingFor('DEFAULT') });
    const framedCreative = await render('CREATIVE', faceVideo, 'creative-framed', { framing: framingFor('CREATIVE') });
    const [defaultFace, creativeFace] = [await faceHeight(framedDefault), await faceHeight(framedCreative)];
    report.push(`face ${(creativeFace * 100).toFixed(1)}% of the height against Default's ${(defaultFace * 100).toFixed(1)}%`);
    expect(creativeFace / defaultFace, report.join('; ')).toBeGreaterThan(0.9);

    // The captions: what they add to the frame lies on the picture, none on the layout.
    const font = await captionFont(null, { registry: null, cacheDir: path.join(dir, 'fonts'), log: () => {} });
    const assFile = path.join(dir, 'creative.ass');
    const words = [{ text: 'Budgets', start: 0, end: 1.4 }, { text: 'matter', start: 1.5, end: 2.9 }];
    writeFileSync(assFile, captionScript({ words, style: 'CREATIVE', colours, fontFamily: font.family, ...size }));
    for (const withFraming of [true, false]) {
      const text = withFraming ? { framing: framingFor('CREATIVE') } : {};
      const captioned = frameOf(await render('CREATIVE', faceVideo, `creative-captions-${withFraming}`, { ...text, captions: { assFile, fontsDir: font.dir } }));
      const bare = frameOf(await render('CREATIVE', faceVideo, `creative-bare-${withFraming}`, text));
      const area = await pictureArea('CREATIVE', withFraming);
      const caption = captioned.map((p, i) => differs(p, bare[i]));
      const onLayout = caption.filter((c, i) => c && !area[i]).length;
      report.push(`captions ${withFraming ? 'framed' : 'whole'}: ${caption.filter(Boolean).length} px, ${onLayout} off the picture`);
      expect(caption.filter(Boolean).length).toBeGreaterThan(500);
      expect(onLayout, report.join('; ')).toBe(0);
    }
    console.log(`Creative: ${report.join('; ')}`);
  }, 120_000);
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
