// The seams of an episode made in pieces (issue 28): rendered as several video segments joined
// without re-encoding, with its sound encoded once, it has the frames, duration, picture and sound
// of the same episode rendered in one segment, and nothing happens at the joins.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integratedLoudness } from '../../tests/support/media.ts';
import { analyseAudio } from './analysis.ts';
import { currentMediaTools, probe } from './ffmpeg.ts';
import { renderEpisode } from '../../tests/support/render-episode.ts';
import { planEpisode } from './render.ts';
import type { MediaInput } from './ffmpeg.ts';

const settings = { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 };
const FPS = 30;
/** 5 s of the source in segments of 1.2 s: four seams inside the main part, one after the intro. */
const START = 0.5;
const END = 5.5;
const SEGMENT_SECONDS = 1.2;
let dir: string;
let main: MediaInput;
let intro: MediaInput;
let logo: string;
let split: string;
let whole: string;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stdout.toString() + result.stderr.toString();
}

/** A moving test picture with a steady tone: any frame out of place or gap in the sound shows. */
function makeSource(file: string, seconds: number, size: string, tone: number): string {
  run(currentMediaTools().ffmpeg, [
    '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `testsrc2=s=${size}:r=${FPS}:d=${seconds}`,
    '-f', 'lavfi', '-i', `sine=f=${tone}:r=48000:d=${seconds}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '15', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
  return file;
}

/** Presentation times of the video packets, in display order. */
function videoTimes(file: string): number[] {
  const { packets } = JSON.parse(run(currentMediaTools().ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-print_format', 'json', '-show_entries', 'packet=pts_time', file])) as {
    packets: { pts_time: string }[];
  };
  return packets.map((p) => Number(p.pts_time)).sort((a, b) => a - b);
}

/** RMS level (dB) of the sound in windows of 10 ms, from the start of the file. */
function windowLevels(file: string): number[] {
  const log = run(currentMediaTools().ffmpeg, [
    '-hide_banner', '-nostdin', '-i', file, '-vn',
    '-af', 'aresample=48000,pan=mono|c0=c0,asetnsamples=n=480,astats=metadata=1:reset=1,ametadata=mode=print:key=lavfi.astats.Overall.RMS_level',
    '-f', 'null', '-',
  ]);
  return [...log.matchAll(/RMS_level=(-?inf|-?[\d.]+)/g)].map((m) => (m[1].endsWith('inf') ? -120 : Number(m[1])));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-episode-seams-'));
  const mainFile = makeSource(path.join(dir, 'main.mp4'), 6, '320x180', 440);
  main = { file: mainFile, info: await probe(mainFile) };
  // An intro of another size and sound: its seam joins two different sources.
  const introFile = makeSource(path.join(dir, 'intro.mp4'), 1, '160x120', 660);
  intro = { file: introFile, info: await probe(introFile) };
  logo = path.join(dir, 'logo.png');
  run(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=0x00FF00:s=64x64', '-frames:v', '1', logo]);
  const { loudness } = await analyseAudio(main.file, START, END - START);
  split = path.join(dir, 'split.mp4');
  whole = path.join(dir, 'whole.mp4');
  const job = { main, intro, start: START, end: END, logo, loudness, settings };
  await renderEpisode({ ...job, output: split, segmentSeconds: SEGMENT_SECONDS });
  await renderEpisode({ ...job, output: whole });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an episode rendered in segments', () => {
  const layout = () => planEpisode({ main: main.info, start: START, end: END, introSeconds: intro.info.durationSeconds, segmentSeconds: SEGMENT_SECONDS });

  it('is planned as the intro and main segments of whole frames that add up to the part', () => {
    const { video, mainFrames } = layout();
    expect(video.map((p) => p.part)).toEqual(['intro', 'main', 'main', 'main', 'main', 'main']);
    expect(mainFrames).toBe((END - START) * FPS);
    expect(video.filter((p) => p.part === 'main').map((p) => p.frames)).toEqual([36, 36, 36, 36, 6]);
  });

  it('has the frames and duration of the unsplit render, on one steady frame grid across every seam', async () => {
    const [splitTimes, wholeTimes] = [videoTimes(split), videoTimes(whole)];
    expect(splitTimes).toHaveLength(FPS + (END - START) * FPS);
    expect(splitTimes).toHaveLength(wholeTimes.length);
    const steps = splitTimes.slice(1).map((t, i) => t - splitTimes[i]);
    for (const step of steps) expect(step).toBeCloseTo(1 / FPS, 3);
    const [a, b] = [await probe(split), await probe(whole)];
    expect(Math.abs(a.durationSeconds - b.durationSeconds)).toBeLessThan(1 / FPS);
  });

  it('shows the same pictures as the unsplit render (no frame moved at a join)', () => {
    const log = run(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-i', split, '-i', whole, '-lavfi', '[0:v][1:v]psnr', '-f', 'null', '-']);
    const psnr = /PSNR .*average:([\d.]+|inf)/.exec(log);
    expect(psnr).not.toBeNull();
    // The same encoder on the same frames: equal but for the rate control's choices at a segment start.
    expect(psnr?.[1] === 'inf' || Number(psnr?.[1]) > 35).toBe(true);
  });

  it('keeps its sound continuous at every seam, at the loudness target', () => {
    const levels = windowLevels(split);
    const pieces = layout().video;
    const seams = pieces.slice(0, -1).map((_, i) => pieces.slice(0, i + 1).reduce((sum, p) => sum + p.frames, 0) / FPS);
    expect(seams).toHaveLength(5);
    const steady = levels.slice(10, -10).sort((x, y) => x - y)[Math.floor((levels.length - 20) / 2)];
    for (const seam of seams) {
      const around = levels.slice(Math.round(seam * 100) - 10, Math.round(seam * 100) + 10);
      expect(around).toHaveLength(20);
      // A tone: no window near a join is quieter than 3 dB under the track's median.
      expect(Math.min(...around)).toBeGreaterThan(steady - 3);
    }
    expect(Math.abs(integratedLoudness(split) + 16)).toBeLessThanOrEqual(1);
  });
});
