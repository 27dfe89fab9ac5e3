// The ffmpeg and ffprobe binaries from npm (@ffmpeg-installer/linux-x64, @ffprobe-installer/linux-x64)
// and a runner that kills the process when the job is aborted (lost heartbeat, shutdown).
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function binary(pkg: string, name: string): string {
  const file = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), name);
  try {
    accessSync(file, constants.X_OK);
  } catch {
    // The package's own postinstall only does this chmod; an install without scripts skips it.
    chmodSync(file, 0o755);
  }
  return file;
}

export const ffmpegPath = binary('@ffmpeg-installer/linux-x64', 'ffmpeg');
export const ffprobePath = binary('@ffprobe-installer/linux-x64', 'ffprobe');

export class MediaError extends Error {
  constructor(
    message: string,
    /** The input itself is unusable: retrying cannot help. */
    readonly permanent = false,
  ) {
    super(message);
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a binary to completion; rejects with the tail of stderr when it fails or is aborted. */
function run(command: string, args: string[], signal?: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (signal?.aborted) reject(new Error('aborted'));
      else if (code === 0) resolve({ stdout, stderr });
      else {
        const tail = stderr.trim().split('\n').slice(-6).join('\n');
        reject(new Error(`${path.basename(command)} exited with ${code}: ${tail}`));
      }
    });
  });
}

export function ffmpeg(args: string[], signal?: AbortSignal): Promise<RunResult> {
  return run(ffmpegPath, ['-hide_banner', '-nostdin', '-y', ...args], signal);
}

export interface MediaInfo {
  durationSeconds: number;
  video: { width: number; height: number; fps: number } | null;
  hasAudio: boolean;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
}

/** "30000/1001" -> 29.97; unknown or absurd rates fall back to 30. */
function frameRate(stream: ProbeStream): number {
  for (const rate of [stream.avg_frame_rate, stream.r_frame_rate]) {
    const [n, d] = (rate ?? '').split('/').map(Number);
    const fps = d ? n / d : n;
    if (Number.isFinite(fps) && fps >= 1 && fps <= 120) return Math.round(fps * 100) / 100;
  }
  return 30;
}

/** Duration and streams of a media file; a file ffprobe cannot read is a permanent MediaError. */
export async function probe(file: string, signal?: AbortSignal): Promise<MediaInfo> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      signal,
    ));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new MediaError(`${path.basename(file)} is not a readable video`, true);
  }
  const info = JSON.parse(stdout) as { format?: { duration?: string }; streams?: ProbeStream[] };
  const streams = info.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  const durationSeconds = Number(info.format?.duration ?? NaN);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw new MediaError(`${path.basename(file)} has no duration`, true);
  }
  return {
    durationSeconds,
    video: video ? { width: video.width as number, height: video.height as number, fps: frameRate(video) } : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}
