// ffmpeg-level checks of the episode render on a few seconds of video: the picture is copied when
// nothing is drawn on it (trim on a keyframe), re-encoded when a logo is, and the sound reaches
// -16 LUFS from the one measurement the analysis makes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameColour, integratedLoudness, SPEECH } from '../../tests/support/media.ts';
import { analyseAudio } from './analysis.ts';
import { currentMediaTools, probe } from './ffmpeg.ts';
import { parseLoudness } from './loudness.ts';
import { renderEpisode } from '../../tests/support/render-episode.ts';
import { MAX_CUT_SHIFT_SECONDS, renderClip } from './render.ts';
import type { MediaInput } from './ffmpeg.ts';

const settings = { preset: 'ultrafast', clipPreset: 'ultrafast', crf: 30, clipHeight: 320 };
const colours = { primary: '1F2937', secondary: '6366F1', tertiary: 'F59E0B' };
const FPS = 30;
let dir: string;
let source: MediaInput;
let logo: string;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stdout.toString();
}

/** A 1 s GOP H.264 source with quiet (about -30 LUFS) speech-like sound. */
function makeSource(file: string, gopFrames: number): string {
  run(currentMediaTools().ffmpeg, [
    '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=${FPS}:d=6`,
    '-f', 'lavfi', '-i', `aevalsrc=0.05*${SPEECH}:s=48000:d=6`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', String(gopFrames), '-keyint_min', String(gopFrames), '-sc_threshold', '0', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-shortest', file,
  ]);
  return file;
}

interface VideoStream {
  codec_name: string;
  profile: string;
  level: number;
  width: number;
  height: number;
  pix_fmt: string;
  nb_frames: string;
  bit_rate: string;
}

const videoStream = (file: string) =>
  (JSON.parse(run(currentMediaTools().ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-print_format', 'json', '-show_streams', file])) as { streams: VideoStream[] }).streams[0];

const audioFormat = (file: string) =>
  (JSON.parse(run(currentMediaTools().ffprobe, ['-v', 'error', '-select_streams', 'a:0', '-print_format', 'json', '-show_entries', 'stream=channels,sample_rate', file])) as {
    streams: { channels: number; sample_rate: string }[];
  }).streams[0];

/** Sizes of the video packets of `file` in decode order (from the one shown at `from` seconds): equal lists are the same coded pictures. */
function packetSizes(file: string, from?: number): number[] {
  const { packets } = JSON.parse(run(currentMediaTools().ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-print_format', 'json', '-show_entries', 'packet=pts_time,size', file])) as {
    packets: { pts_time: string; size: string }[];
  };
  const first = from === undefined ? 0 : packets.findIndex((p) => Math.abs(Number(p.pts_time) - from) < 1e-3);
  return packets.slice(first).map((p) => Number(p.size));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-episode-render-'));
  const file = makeSource(path.join(dir, 'source.mp4'), FPS);
  source = { file, info: await probe(file) };
  logo = path.join(dir, 'logo.png');
  run(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=0x00FF00:s=64x64', '-frames:v', '1', logo]);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('renderEpisode', () => {
  it('copies the picture of an episode without logo or intro/outro, cut on the keyframe before the start, and normalises the sound', async () => {
    const { loudness } = await analyseAudio(source.file, 2.5, 3);
    expect(loudness?.inputI).toBeLessThan(-25);
    const output = path.join(dir, 'copied.mp4');
    const result = await renderEpisode({ main: source, start: 2.5, end: 5.5, loudness, output, settings });

    // Keyframes every second: the copy starts at 2 s, half a second early.
    expect(result.copied && result.start).toBeCloseTo(2, 2);
    const [before, after] = [videoStream(source.file), videoStream(output)];
    for (const key of ['codec_name', 'profile', 'level', 'width', 'height', 'pix_fmt'] as const) expect(after[key]).toBe(before[key]);
    expect(Number(after.bit_rate) / Number(before.bit_rate)).toBeCloseTo(1, 0);
    // The very same coded pictures, not an encode of them.
    const copied = packetSizes(output);
    expect(copied).toEqual(packetSizes(source.file, 2).slice(0, copied.length));
    const frames = Number(after.nb_frames);
    expect(frames).toBeGreaterThanOrEqual(3 * FPS);
    expect(frames).toBeLessThanOrEqual((3 + MAX_CUT_SHIFT_SECONDS) * FPS + 2);
    // From the keyframe to the end (the last frames' display time and the audio's padding on top).
    const duration = (await probe(output)).durationSeconds;
    expect(duration).toBeGreaterThanOrEqual(3.49);
    expect(duration).toBeLessThan(3.6);
    expect(Math.abs(integratedLoudness(output) + 16)).toBeLessThanOrEqual(1);
    // The mono source is normalised as mono and delivered in stereo, 48 kHz.
    expect(audioFormat(source.file).channels).toBe(1);
    expect(audioFormat(output)).toEqual({ channels: 2, sample_rate: '48000' });
  }, 60_000);

  it('re-encodes an episode with a logo, cut on the frame, at the same loudness', async () => {
    const { loudness } = await analyseAudio(source.file, 2.5, 3);
    const output = path.join(dir, 'logo.mp4');
    expect(await renderEpisode({ main: source, start: 2.5, end: 5.5, logo, loudness, output, settings })).toEqual({ copied: false });
    const encoded = packetSizes(output);
    expect(encoded).not.toEqual(packetSizes(source.file, 2.5).slice(0, encoded.length));
    expect((await probe(output)).durationSeconds).toBeCloseTo(3, 1);
    expect(frameColour(output, 1, '30:30:280:10')[1]).toBeGreaterThan(200);
    expect(Math.abs(integratedLoudness(output) + 16)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('re-encodes when the keyframe before the start is further back than the cut may move', async () => {
    const sparse = makeSource(path.join(dir, 'sparse.mp4'), 5 * FPS);
    const output = path.join(dir, 'sparse-out.mp4');
    const main = { file: sparse, info: await probe(sparse) };
    expect(await renderEpisode({ main, start: 4, end: 5.5, output, settings })).toEqual({ copied: false });
    expect((await probe(output)).durationSeconds).toBeCloseTo(1.5, 1);
  }, 60_000);

  it('re-encodes a picture stored turned (a phone held upright), so it comes out upright', async () => {
    const turned = path.join(dir, 'turned.mp4');
    run(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-i', source.file, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', turned]);
    const output = path.join(dir, 'turned-out.mp4');
    expect(await renderEpisode({ main: { file: turned, info: await probe(turned) }, start: 0, end: 2, output, settings })).toEqual({ copied: false });
  }, 60_000);

  it('normalises a clip with the episode\'s measurement', async () => {
    const { loudness } = await analyseAudio(source.file, 0, 6);
    const output = path.join(dir, 'clip.mp4');
    await renderClip({ main: source, start: 1, end: 5, frame: { look: 'DEFAULT', aspect: 'portrait' }, colours, loudness, output, settings });
    expect(Math.abs(integratedLoudness(output) + 16)).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('parseLoudness', () => {
  it('reads loudnorm\'s JSON, and none for silence', () => {
    const json = (i: string) => `[Parsed_loudnorm_0 @ 0x1] \n{\n\t"input_i" : "${i}",\n\t"input_tp" : "-20.10",\n\t"input_lra" : "3.40",\n\t"input_thresh" : "-40.00",\n\t"output_i" : "-16.0",\n\t"target_offset" : "0.20"\n}\n`;
    expect(parseLoudness(json('-30.05'))).toEqual({ inputI: -30.05, inputTp: -20.1, inputLra: 3.4, inputThresh: -40, targetOffset: 0.2 });
    expect(parseLoudness(json('-inf'))).toBeNull();
    expect(parseLoudness('no measurement')).toBeNull();
  });
});
