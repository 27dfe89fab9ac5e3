// Framing a clip on the face that is talking. The worker's ffmpeg samples a few grey frames per
// second of the moment (opened like every input: fixed demuxer, file protocol only); faces.py
// finds the faces in them with OpenCV's Haar cascade; speakerPath (pure) picks the talking face
// per sample and turns the samples into a camera path that holds still while the face stays near
// the middle and glides when it leaves, so the frame does not jump; cropExpression gives ffmpeg
// that path. No face in most samples, or no detector installed: null, and the clip keeps the
// style's whole-picture layout.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentMediaTools, ffmpeg, inputArgs } from './ffmpeg.ts';

/** Frames sampled per second, and their width (faces of a podcast frame stay well above the cascade's minimum). */
export const SAMPLE_FPS = 2;
const SAMPLE_WIDTH = 480;
/** Share of samples that must show a face for the clip to be framed on it. */
const MIN_FACE_SHARE = 0.4;
/** The camera moves only when the face is further than this share of the crop from its middle. */
const DEAD_ZONE = 0.18;
/** Seconds a camera move takes. */
const GLIDE_SECONDS = 0.8;

export interface Face {
  /** Box in source pixels. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Mouth movement since the previous sample (faces.py). */
  motion: number;
}

export interface FaceSamples {
  /** Seconds between samples. */
  interval: number;
  frames: Face[][];
}

export interface CameraKey {
  /** Seconds from the moment's start. */
  t: number;
  /** Left edge of the crop, source pixels. */
  x: number;
}

const centre = (f: Face) => f.x + f.w / 2;

/** Per sample, the talking face's centre: the one moving its mouth most, staying with the previous one unless another clearly talks more. */
function speakerCentres(samples: FaceSamples): (number | null)[] {
  let last: number | null = null;
  return samples.frames.map((faces) => {
    if (!faces.length) return null;
    const byMotion = [...faces].sort((a, b) => b.motion - a.motion || b.w * b.h - a.w * a.h);
    let pick = byMotion[0];
    if (last !== null) {
      const held = [...faces].sort((a, b) => Math.abs(centre(a) - (last as number)) - Math.abs(centre(b) - (last as number)))[0];
      if (Math.abs(centre(held) - last) < held.w && pick.motion < held.motion * 2 + 1) pick = held;
    }
    last = centre(pick);
    return last;
  });
}

/** Median of each sample with its neighbours: one false detection does not move the camera. */
function median(values: number[], radius = 2): number[] {
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - radius), i + radius + 1).sort((a, b) => a - b);
    return window[Math.floor(window.length / 2)];
  });
}

/**
 * The camera path for a crop `cropWidth` wide over a `frameWidth` source, or null when faces are
 * too rare to frame on. Keys are where the camera starts and ends each move; between them it is still.
 */
export function speakerPath(samples: FaceSamples, frameWidth: number, cropWidth: number): CameraKey[] | null {
  const centres = speakerCentres(samples);
  const seen = centres.filter((c) => c !== null).length;
  if (!centres.length || seen / centres.length < MIN_FACE_SHARE) return null;
  // A sample without a face keeps the last face seen (or the first, before any).
  const firstSeen = centres.find((c) => c !== null) as number;
  let carried = firstSeen;
  const filled = median(centres.map((c) => (carried = c ?? carried)));
  const clampX = (c: number) => Math.round(Math.min(Math.max(0, c - cropWidth / 2), frameWidth - cropWidth));

  const keys: CameraKey[] = [{ t: 0, x: clampX(filled[0]) }];
  let camera = keys[0].x;
  let busyUntil = 0;
  filled.forEach((c, i) => {
    const t = i * samples.interval;
    if (t < busyUntil) return;
    const target = clampX(c);
    if (Math.abs(target - camera) <= cropWidth * DEAD_ZONE) return;
    keys.push({ t, x: camera }, { t: t + GLIDE_SECONDS, x: target });
    camera = target;
    busyUntil = t + GLIDE_SECONDS;
  });
  return keys;
}

/** An ffmpeg expression of `t` for the crop's x: still between keys, linear (eased by the glide) across a move. */
export function cropExpression(keys: CameraKey[]): string {
  const terms = [String(keys[0].x)];
  for (let i = 1; i < keys.length; i++) {
    const [a, b] = [keys[i - 1], keys[i]];
    if (b.x === a.x) continue;
    const span = Math.max(0.001, b.t - a.t);
    terms.push(`${b.x - a.x}*clip((t-${a.t.toFixed(3)})/${span.toFixed(3)},0,1)`);
  }
  return terms.join('+');
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'faces.py');
const DETECTOR_IDLE_MS = 5 * 60_000;
const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

/**
 * faces.py, started on first use and kept for this process's next clips (a worker frames one
 * clip per piece; loading OpenCV costs more than the detection): one request at a time, each
 * answered by one line. A detector that fails or whose request is aborted is dropped, and the
 * next request starts another. Idle, it does not keep the process alive, and after
 * DETECTOR_IDLE_MS it ends (its ~150 MB go back to the renders).
 */
class FaceDetectorProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = '';
  private stderr = '';
  private waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** True once the process runs, false when it could not start (not installed). */
  readonly started: Promise<boolean>;

  constructor(
    readonly key: string,
    python: string,
    cascade: string,
  ) {
    this.child = spawn(python, [SCRIPT, cascade], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.started = new Promise((resolve) => {
      this.child.once('spawn', () => resolve(true));
      this.child.once('error', () => resolve(false));
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.output += chunk;
      const end = this.output.indexOf('\n');
      // An answer is read up to a cap, as every outbound answer is (the one-shot run had maxBuffer).
      if (end < 0 && this.output.length > MAX_ANSWER_CHARS) return this.gone(new Error('answer too long'), () => this.child.kill('SIGKILL'));
      if (end < 0 || !this.waiting) return;
      const line = this.output.slice(0, end);
      this.output = this.output.slice(end + 1);
      const { resolve } = this.waiting;
      this.waiting = null;
      this.hold(false);
      resolve(line);
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4000)));
    // Writing to a detector that has just died: its 'close' says why.
    this.child.stdin.on('error', () => {});
    this.child.on('error', (error) => this.gone(error));
    this.child.on('close', (code, signal) => this.gone(new Error(`exited (${code ?? signal}): ${this.stderr.trim().split('\n').slice(-2).join(' ')}`)));
    this.hold(false);
  }

  /** Why it can take no more requests (null while it can). */
  get problem(): Error | null {
    return this.failure;
  }

  /** One request's answer line; aborted, the process is killed (its answer would come too late). */
  ask(request: unknown, signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    return new Promise((resolve, reject) => {
      const onAbort = () => this.gone(new Error('aborted'), () => this.child.kill('SIGKILL'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiting = {
        resolve: (line) => {
          done();
          resolve(line);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      this.hold(true);
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** No more requests for this process; `end` then stops it. */
  private gone(error: Error, end?: () => void): void {
    this.failure ??= error;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(this.failure);
    if (detector === this) detector = null;
    end?.();
  }

  /** Keeps the event loop alive only while a request is under way; idle long enough, stdin closes and faces.py ends. */
  private hold(busy: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as Pick<Socket, 'ref' | 'unref'>[]) {
      if (busy) handle.ref();
      else handle.unref();
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = busy ? null : setTimeout(() => this.gone(new Error('idle'), () => this.child.stdin.end()), DETECTOR_IDLE_MS).unref();
  }
}

let detector: FaceDetectorProcess | null = null;
/** Requests wait their turn: the process answers one at a time, in order. */
let turn: Promise<unknown> = Promise.resolve();

/** The detector of the current settings, started when none is running. */
function runningDetector(): FaceDetectorProcess {
  const { python, faceCascade: cascade } = currentMediaTools();
  const key = `${python}\0${cascade}`;
  if (!detector || detector.problem || detector.key !== key) detector = new FaceDetectorProcess(key, python, cascade);
  return detector;
}

function askDetector(request: { width: number; height: number; files: string[] }, signal?: AbortSignal): Promise<string> {
  const answer = turn.then(() => runningDetector().ask(request, signal));
  turn = answer.catch(() => {});
  return answer;
}

/**
 * Faces in `file` in each of `ranges` (episode seconds), in source pixels; null for every range
 * when the detector is not installed or fails (logged): the clips are then laid out as without a face.
 */
export async function detectFaces(
  file: string,
  source: { width: number; height: number },
  ranges: { start: number; end: number }[],
  workDir: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<(FaceSamples | null)[]> {
  if (!ranges.length) return [];
  // Started before the frames are decoded, so OpenCV loads meanwhile; one that cannot start (not
  // installed) costs no decoding.
  const starting = runningDetector();
  if (!(await starting.started)) {
    log(`no speaker framing (the face detector failed): ${starting.problem?.message ?? 'it did not start'}`);
    return ranges.map(() => null);
  }
  const width = Math.min(SAMPLE_WIDTH, source.width - (source.width % 2));
  const height = Math.max(2, Math.round((source.height * width) / source.width / 2) * 2);
  const dir = await mkdtemp(path.join(workDir, 'faces-'));
  try {
    const files: string[] = [];
    for (const [i, range] of ranges.entries()) {
      const frames = path.join(dir, `clip-${i}.gray`);
      await ffmpeg(
        [
          ...inputArgs('video', file, ['-ss', range.start.toFixed(3), '-to', range.end.toFixed(3)]),
          '-an', '-vf', `fps=${SAMPLE_FPS},scale=${width}:${height},format=gray`, '-f', 'rawvideo', `file:${frames}`,
        ],
        signal,
      );
      files.push(frames);
    }
    let parsed: { clips?: number[][][][]; error?: string };
    try {
      parsed = JSON.parse(await askDetector({ width, height, files }, signal)) as typeof parsed;
    } catch (error) {
      if (signal?.aborted) throw error;
      log(`no speaker framing (the face detector failed): ${(error as Error).message.split('\n').slice(-2).join(' ')}`);
      return ranges.map(() => null);
    }
    if (!parsed.clips) {
      log(`no speaker framing (the face detector failed): ${parsed.error}`);
      return ranges.map(() => null);
    }
    const scale = source.width / width;
    return parsed.clips.map((frames) => ({
      interval: 1 / SAMPLE_FPS,
      frames: frames.map((faces) => faces.map(([x, y, w, h, motion]) => ({ x: x * scale, y: y * scale, w: w * scale, h: h * scale, motion }))),
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
