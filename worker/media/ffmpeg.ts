// The ffmpeg and ffprobe binaries (the worker's checked configuration, config.ts MediaTools), how
// every input is opened, and a runner that kills the process when the job is aborted (lost
// heartbeat, time limit, shutdown).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { mediaTools, type MediaTools } from '../config.ts';
import { ProcessingFailure } from '../failure.ts';
import type { Loudness, MediaInfo } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';

/** The binaries in use: the defaults until the worker hands over its checked configuration. */
let tools: MediaTools = mediaTools();

/** The worker's configured binaries, set once as it starts (runtime/worker.ts). */
export function useMediaTools(configured: MediaTools): void {
  tools = configured;
}

export const currentMediaTools = (): MediaTools => tools;

/**
 * What a slot holds, and so the one demuxer (and for images the one decoder) its file is read
 * with. ffmpeg never guesses the format of a subscriber's file: guessing is how an HLS playlist or
 * a concat script named logo.png made it open other files on the worker's disk.
 */
export type InputKind = 'video' | 'png';

/** An input of a render: a file on this machine or a signed Storage URL (a piece reads only its part), as probed. */
export interface MediaInput {
  file: string;
  info: MediaInfo;
  /** Its sound's measurement when already made (a brand video's, carried by the plan). */
  loudness?: Loudness | null;
}

const INPUT_FORMAT: Record<InputKind, { demuxer: string[]; decoder: string[] }> = {
  // MP4/MOV (the only video the upload slots take); external data references stay off.
  video: { demuxer: ['-f', 'mov', '-enable_drefs', '0'], decoder: [] },
  // One PNG image, decoded as PNG only.
  png: { demuxer: ['-f', 'png_pipe'], decoder: ['-c:v', 'png'] },
};

/** A source the worker reads over HTTP: a short-lived signed Storage URL (worker/storage.ts). */
const isUrl = (file: string) => /^https?:\/\//.test(file);
const NETWORK_PROTOCOLS = 'http,https,tcp,tls';
/** A network input reconnects (at the offset it had reached) when its connection drops. */
const RECONNECT = [
  ['reconnect', '1'],
  ['reconnect_on_network_error', '1'],
  ['reconnect_delay_max', '10'],
] as const;

/**
 * The options that open `file` as one input of `kind`: only the file protocol (no network, no
 * other protocol a file could name), the slot's fixed demuxer, and the path as an explicit
 * `file:` URL. `options` are further input options (`-ss`, `-to`). A signed Storage URL (the
 * upload, probed and read where it is stored; a piece reads only its part: ffmpeg seeks with HTTP
 * range requests) may use HTTP(S) and nothing else, and reconnects (at the offset it had reached)
 * when the connection drops.
 */
export function inputArgs(kind: InputKind, file: string, options: string[] = []): string[] {
  const { demuxer, decoder } = INPUT_FORMAT[kind];
  const { protocols, target } = opening(file);
  return [...protocols, ...demuxer, ...decoder, ...options, '-i', target];
}

/** The protocols that may read `file` (ffmpeg's and ffprobe's options), and its name for them. */
function opening(file: string): { protocols: string[]; target: string } {
  if (isUrl(file)) return { protocols: ['-protocol_whitelist', NETWORK_PROTOCOLS, ...RECONNECT.flatMap(([name, value]) => [`-${name}`, value])], target: file };
  return { protocols: ['-protocol_whitelist', 'file'], target: `file:${path.resolve(file)}` };
}

/**
 * The concat demuxer's list of the worker's own renders (`files`: paths, or signed URLs that
 * reconnect as `inputArgs`' do), and the options that open it: the list's own file protocol, plus
 * HTTP(S) when an entry is a URL.
 */
export function concatInput(files: string[], list: string): { text: string; args: string[] } {
  // Quotes escaped as the concat format wants.
  const quoted = (name: string) => `'${name.replace(/'/g, "'\\''")}'`;
  const entry = (file: string) =>
    isUrl(file) ? [`file ${quoted(file)}`, ...RECONNECT.map(([name, value]) => `option ${name} ${value}`)] : [`file ${quoted(path.resolve(file))}`];
  const protocols = files.some(isUrl) ? `file,${NETWORK_PROTOCOLS}` : 'file';
  return {
    text: files.flatMap(entry).join('\n') + '\n',
    args: ['-protocol_whitelist', protocols, '-f', 'concat', '-safe', '0', '-i', `file:${path.resolve(list)}`],
  };
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a binary to completion; rejects with the tail of stderr when it fails or is aborted. */
export function runBinary(command: string, args: string[], signal?: AbortSignal): Promise<RunResult> {
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
  return runBinary(tools.ffmpeg, ['-hide_banner', '-nostdin', '-y', ...args], signal);
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
}

interface ProbeOutput {
  format?: { duration?: string };
  streams?: ProbeStream[];
}

/**
 * "30000/1001" -> 29.97: the average rate, else the base rate; below 1 or unknown counts as 30.
 * A high rate is kept as declared, so the plan's cap sees it.
 */
function frameRate(stream: ProbeStream): number {
  for (const rate of [stream.avg_frame_rate, stream.r_frame_rate]) {
    const [n, d] = (rate ?? '').split('/').map(Number);
    const fps = d ? n / d : n;
    if (Number.isFinite(fps) && fps >= 1) return Math.round(fps * 100) / 100;
  }
  return 30;
}

/**
 * ffprobe's view of `file` opened as `kind` (the same fixed demuxer ffmpeg will use); `label` names
 * the file in the reason a subscriber reads.
 */
async function ffprobe(kind: InputKind, file: string, label: string, signal?: AbortSignal): Promise<ProbeOutput> {
  const { demuxer } = INPUT_FORMAT[kind];
  const { protocols, target } = opening(file);
  let stdout: string;
  try {
    ({ stdout } = await runBinary(tools.ffprobe, ['-v', 'error', ...protocols, ...demuxer, '-print_format', 'json', '-show_format', '-show_streams', target], signal));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw ProcessingFailure.unusableInput(`${label} is not a readable ${kind === 'png' ? 'PNG image' : 'video'}`);
  }
  return JSON.parse(stdout) as ProbeOutput;
}

/** Duration and streams of a video file; a file that is not an MP4/MOV video is a permanent ProcessingFailure. */
export async function probe(file: string, signal?: AbortSignal, label = path.basename(file)): Promise<MediaInfo> {
  const info = await ffprobe('video', file, label, signal);
  const streams = info.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  const durationSeconds = Number(info.format?.duration ?? NaN);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw ProcessingFailure.unusableInput(`${label} has no duration`);
  }
  return {
    durationSeconds,
    video: video ? { width: video.width as number, height: video.height as number, fps: frameRate(video) } : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}

/** Size of a PNG image; anything that is not one PNG with a picture is a permanent ProcessingFailure. */
export async function probeImage(
  file: string,
  signal?: AbortSignal,
  label = path.basename(file),
): Promise<{ width: number; height: number }> {
  const info = await ffprobe('png', file, label, signal);
  const image = (info.streams ?? []).find((s) => s.codec_type === 'video' && s.codec_name === 'png');
  // png_pipe reports a stream even for bytes that are no PNG at all, with a size of 0x0.
  if (!image?.width || !image.height) throw ProcessingFailure.unusableInput(`${label} is not a readable PNG image`);
  return { width: image.width, height: image.height };
}

/** The video stream as a stream copy sees it, and the keyframe a copied trim would start on. */
export interface CopyCut {
  codec: string;
  pixFmt: string;
  /** Degrees the picture is turned on display (a phone held upright): 0 for none. */
  rotation: number;
  /** Seconds from the start of the file of the last keyframe at or before the cut. */
  keyframeSeconds: number;
}

/**
 * The first video stream's codec and pixel format and the last keyframe at or before `seconds`
 * (from the file's start, as `-ss` counts), looking back at most `maxShift` seconds; null when no
 * keyframe is that close.
 */
export async function keyframeBefore(file: string, seconds: number, maxShift: number, signal?: AbortSignal): Promise<CopyCut | null> {
  const { protocols, target } = opening(file);
  const base = ['-v', 'error', ...protocols, ...INPUT_FORMAT.video.demuxer, '-print_format', 'json'];
  const head = JSON.parse(
    (await runBinary(tools.ffprobe, [...base, '-select_streams', 'v:0', '-show_entries', 'format=start_time:stream=codec_name,pix_fmt:stream_side_data=rotation', target], signal)).stdout,
  ) as { format?: { start_time?: string }; streams?: { codec_name?: string; pix_fmt?: string; side_data_list?: { rotation?: number }[] }[] };
  const stream = head.streams?.[0];
  if (!stream?.codec_name || !stream.pix_fmt) return null;
  const params = { codec: stream.codec_name, pixFmt: stream.pix_fmt, rotation: stream.side_data_list?.find((d) => d.rotation)?.rotation ?? 0 };
  // From the very start nothing is cut: the copy begins where the file does.
  if (seconds <= 0) return { ...params, keyframeSeconds: 0 };
  // -ss counts from the file's start time; packet times are absolute.
  const origin = Number(head.format?.start_time ?? 0) || 0;
  const at = origin + seconds;
  const { packets = [] } = JSON.parse(
    (
      await runBinary(
        tools.ffprobe,
        [...base, '-select_streams', 'v:0', '-read_intervals', `${Math.max(0, at - maxShift - 1)}%${at + 0.001}`, '-show_entries', 'packet=pts_time,flags', target],
        signal,
      )
    ).stdout,
  ) as { packets?: { pts_time?: string; flags?: string }[] };
  const keyframes = packets
    .filter((p) => p.flags?.startsWith('K') && p.pts_time !== undefined)
    .map((p) => Number(p.pts_time))
    .filter((t) => t <= at + 1e-6 && t >= at - maxShift);
  if (keyframes.length === 0) return null;
  return { ...params, keyframeSeconds: Math.max(0, Math.max(...keyframes) - origin) };
}
