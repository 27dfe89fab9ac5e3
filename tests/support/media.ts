// Test media made with ffmpeg's lavfi sources, and checks on rendered files (size, duration,
// colour of a frame, loudness).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { currentMediaTools } from '../../worker/media/ffmpeg.ts';

function ffmpeg(args: string[]): Buffer {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** Where the speech is louder (seconds), unless a fixture says otherwise. */
const LOUDER = [[20, 34], [62, 74], [96, 108]] as const;

/**
 * Speech-like audio: a voiced tone chopped into word-length bursts (4 per second) in phrases of
 * 3.8 s, each followed by a 1.2 s pause; louder in the `louder` stretches (by default 20-34 s,
 * 62-74 s, 96-108 s), the rest at `quiet` of their level. Pauses: [5k + 3.8, 5k + 5) seconds.
 */
const speech = (quiet: number, louder: readonly (readonly [number, number])[] = LOUDER) =>
  '0.9*sin(2*PI*180*t)*sin(2*PI*3.1*t)*gt(sin(2*PI*4*t)\\,-0.4)*lt(mod(t\\,5)\\,3.8)' +
  `*(${quiet}+${1 - quiet}*(${louder.map(([from, to]) => `between(t\\,${from}\\,${to})`).join('+')}))`;
/** The benches' speech: louder stretches 10 dB up, a loudness range (12.6 LU) that loudnorm narrows in its dynamic mode. */
export const SPEECH = speech(0.3);
/**
 * The test episodes' speech: louder stretches 7 dB up, a loudness range of 9 LU, inside the
 * worker's 11 LU target, so every render normalises it with loudnorm's linear gain: a tenth of
 * the CPU of its dynamic mode (0.4 s against 4.3 s for 75 s), which the tests do not need.
 */
const episodeSpeech = (louder?: readonly (readonly [number, number])[]) => speech(0.45, louder);
export const PAUSE_EVERY = 5;
export const PAUSE_STARTS_AT = 3.8;

export interface Fixtures {
  episode: string;
  intro: string;
  outro: string;
  clipIntro: string;
  clipOutro: string;
  logo: string;
}

/**
 * A test episode of `seconds` (320x180 test pattern + speech-like audio, louder in `louder`) and
 * brand assets. Without words, the worker's clips are the louder stretches (worker/media/clip-selection.ts).
 */
export function makeFixtures(dir: string, seconds: number, episodeVideo = { size: '320x180', fps: 10 }, louder?: readonly (readonly [number, number])[]): Fixtures {
  const f = (name: string) => path.join(dir, name);
  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  ffmpeg([
    '-f', 'lavfi', '-i', `testsrc=s=${episodeVideo.size}:r=${episodeVideo.fps}:d=${seconds}`,
    '-f', 'lavfi', '-i', `aevalsrc=${episodeSpeech(louder)}:s=16000:d=${seconds}`,
    ...h264, '-c:a', 'aac', '-shortest', f('episode.mp4'),
  ]);
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=320x180:r=10:d=2', '-f', 'lavfi', '-i', 'sine=f=440:d=2', ...h264, '-c:a', 'aac', '-shortest', f('intro.mp4')]);
  // The outro has no sound: the worker must give it silence.
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=320x180:r=10:d=2', ...h264, f('outro.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=yellow:s=180x320:r=10:d=1', '-f', 'lavfi', '-i', 'sine=f=660:d=1', ...h264, '-c:a', 'aac', '-shortest', f('clip-intro.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=magenta:s=180x320:r=10:d=1', ...h264, f('clip-outro.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x00FF00:s=64x64', '-frames:v', '1', f('logo.png')]);
  return {
    episode: f('episode.mp4'),
    intro: f('intro.mp4'),
    outro: f('outro.mp4'),
    clipIntro: f('clip-intro.mp4'),
    clipOutro: f('clip-outro.mp4'),
    logo: f('logo.png'),
  };
}

/**
 * A short H.264 MP4 of one colour (or, with `pattern`, a moving test pattern that costs real
 * encoding work), with speech-like sound unless `silent`.
 */
export function makeVideo(
  file: string,
  options: { size: string; fps: number; seconds: number; colour?: string; pattern?: boolean; silent?: boolean },
): string {
  const picture = options.pattern ? 'testsrc2=' : `color=c=${options.colour ?? 'black'}:`;
  ffmpeg([
    '-f', 'lavfi', '-i', `${picture}s=${options.size}:r=${options.fps}:d=${options.seconds}`,
    ...(options.silent ? [] : ['-f', 'lavfi', '-i', `aevalsrc=${episodeSpeech()}:s=16000:d=${options.seconds}`, '-c:a', 'aac', '-shortest']),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file,
  ]);
  return file;
}

export interface Probed {
  durationSeconds: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

export function probeFile(file: string): Probed {
  const result = spawnSync(currentMediaTools().ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  if (result.status !== 0) throw new Error(`ffprobe ${file}: ${result.stderr.toString()}`);
  const info = JSON.parse(result.stdout.toString()) as {
    format: { duration: string };
    streams: { codec_type: string; width?: number; height?: number }[];
  };
  const video = info.streams.find((s) => s.codec_type === 'video');
  return {
    durationSeconds: Number(info.format.duration),
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    hasAudio: info.streams.some((s) => s.codec_type === 'audio'),
  };
}

/** The mean colour [r, g, b] of the frame at `seconds`, optionally of a crop `w:h:x:y` of it. */
export function frameColour(file: string, seconds: number, crop?: string): [number, number, number] {
  const filters = [crop ? `crop=${crop}` : null, 'scale=1:1:flags=area'].filter(Boolean).join(',');
  const out = ffmpeg(['-ss', seconds.toFixed(2), '-i', file, '-frames:v', '1', '-vf', filters, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  return [out[0], out[1], out[2]];
}

/** Which of a few named colours `rgb` is closest to. */
export function colourName([r, g, b]: [number, number, number]): string {
  const named: Record<string, [number, number, number]> = {
    red: [255, 0, 0],
    green: [0, 255, 0],
    blue: [0, 0, 255],
    yellow: [255, 255, 0],
    magenta: [255, 0, 255],
    black: [0, 0, 0],
  };
  let best = 'other';
  let bestDistance = 120;
  for (const [name, [nr, ng, nb]] of Object.entries(named)) {
    const distance = Math.hypot(r - nr, g - ng, b - nb);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Integrated loudness (LUFS) measured by ffmpeg's EBU R128 scanner. */
export function integratedLoudness(file: string): number {
  const result = spawnSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-i', file, '-af', 'ebur128', '-f', 'null', '-']);
  const text = result.stderr.toString();
  const match = /Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(text);
  if (!match) throw new Error(`no loudness summary for ${file}`);
  return Number(match[1]);
}
