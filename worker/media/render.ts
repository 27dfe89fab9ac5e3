// The ffmpeg filter graphs for the finished episode and the 9:16 clips.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SAFE_AREA } from './captions.ts';
import type { EncodeSettings } from '../config.ts';
import type { ClipFrame } from '../../supabase/functions/_shared/domain-server/processing-job.ts';
import type { EpisodeLayout, Loudness, MediaInfo, VideoPiece } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { concatInput, ffmpeg, inputArgs, keyframeBefore, probe, type MediaInput } from './ffmpeg.ts';
import { loudnessOf, normaliseFilter } from './loudness.ts';
import { clipStyleFilter, type BrandColours, type ClipText } from './styles.ts';

const AUDIO_RATE = 48000;
/**
 * A copied episode starts on the last keyframe at or before the subscriber's start time: at most
 * this many seconds early (a source with sparser keyframes is re-encoded, cut on the frame).
 */
export const MAX_CUT_SHIFT_SECONDS = 2;
/** What a stream copy keeps as it is and every player plays: H.264 in 8-bit 4:2:0, stored upright. */
const COPYABLE = { codecs: ['h264'], pixFmts: ['yuv420p', 'yuvj420p'] };
/** Output frame rate: the episode's own, at most 30 (clips for social platforms need no more). */
const outputFps = (main: MediaInfo) => Math.min(30, main.video?.fps ?? 30);

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * `input`'s first sound track copied as it is into `output` (MOV holds whatever sound the upload's
 * does): what the words and the analysis read, a few MB, instead of each streaming the whole
 * upload. The picture's first frame goes along (the input opened a second time, read for an
 * instant) so the copy's clock starts where the upload's does: a copy of the sound alone starts at
 * the sound's own first sample, and every `-ss` into an upload whose picture starts earlier would
 * land that much later.
 */
export async function copySoundTrack(input: MediaInput, output: string, signal?: AbortSignal): Promise<MediaInput> {
  const firstFrame = input.info.video ? inputArgs('video', input.file, ['-t', '0.001']) : [];
  const maps = input.info.video ? ['-map', '0:v:0', '-map', '1:a:0'] : ['-map', '0:a:0'];
  await ffmpeg([...firstFrame, ...inputArgs('video', input.file), ...maps, '-c', 'copy', '-f', 'mov', output], signal);
  return { file: output, info: input.info };
}

/** AAC sound, and an MP4 that plays while it downloads. */
const AUDIO_OUT = ['-c:a', 'aac', '-b:a', '128k', '-ar', String(AUDIO_RATE), '-ac', '2', '-movflags', '+faststart'];

function encodeArgs(settings: EncodeSettings, preset: string): string[] {
  return ['-c:v', 'libx264', '-preset', preset, '-crf', String(settings.crf), '-pix_fmt', 'yuv420p', ...AUDIO_OUT];
}

/**
 * A segment's sound in the common format, brought to -16 LUFS with its own measurement (linear), or
 * silence for a segment without sound.
 */
function audioChain(input: number, segment: Segment, label: string): string {
  if (!segment.info.hasAudio) {
    return `anullsrc=r=${AUDIO_RATE}:cl=stereo,atrim=duration=${segment.duration.toFixed(3)},asetpts=PTS-STARTPTS${label}`;
  }
  // loudnorm works at 192 kHz: back to the output rate after it. Mono sound is normalised as mono
  // (half the work) and made stereo after: the upmix keeps its loudness (each side 3 dB down), so a
  // linear gain gives the same result either way, and the measurement was taken on the mono.
  return `[${input}:a]aresample=${AUDIO_RATE},aformat=channel_layouts=mono|stereo,asetpts=PTS-STARTPTS,${normaliseFilter(segment.loudness)},aresample=${AUDIO_RATE},aformat=channel_layouts=stereo${label}`;
}

/**
 * Inputs and filter chains for one segment (intro, main part, outro) made uniform for concat:
 * same size, frame rate and audio format; a segment without sound gets silence.
 */
interface Segment {
  inputArgs: string[];
  info: MediaInfo;
  /** Seconds the segment lasts once trimmed (the length of the silence a mute segment gets). */
  duration: number;
  /** Its sound's measurement (null: unmeasured, normalised in one dynamic pass). */
  loudness: Loudness | null;
}

/** A brand intro or outro as a segment, its sound measured once per job. */
async function brandSegment(input: MediaInput, signal?: AbortSignal): Promise<Segment> {
  const loudness = input.loudness !== undefined ? input.loudness : input.info.hasAudio ? await loudnessOf(input, signal) : null;
  return { inputArgs: inputArgs('video', input.file), info: input.info, duration: input.info.durationSeconds, loudness };
}

function buildConcat(
  fps: number,
  segments: Segment[],
  fit: (label: string, index: number) => string,
  extraInputs: string[],
  extraVideo: (index: number, label: string) => string | null,
): { args: string[]; graph: string } {
  const args: string[] = [];
  const chains: string[] = [];
  const pairs: string[] = [];
  for (const segment of segments) args.push(...segment.inputArgs);
  args.push(...extraInputs);
  segments.forEach((segment, i) => {
    const fitted = fit(`[${i}:v]`, i);
    const extra = extraVideo(i, `[f${i}]`);
    chains.push(`${fitted},fps=${fps},setsar=1,format=yuv420p[f${i}]`);
    if (extra) chains.push(`${extra}[v${i}]`);
    else chains.push(`[f${i}]null[v${i}]`);
    chains.push(audioChain(i, segment, `[a${i}]`));
    pairs.push(`[v${i}][a${i}]`);
  });
  chains.push(`${pairs.join('')}concat=n=${segments.length}:v=1:a=1[cv][outa]`);
  return { args, graph: chains.join(';') };
}

function trimmedInput(file: string, start: number, end: number): string[] {
  return inputArgs('video', file, ['-ss', start.toFixed(3), '-to', end.toFixed(3)]);
}

export interface EpisodeRender {
  main: MediaInput;
  start: number;
  end: number;
  intro?: MediaInput;
  outro?: MediaInput;
  /** PNG overlaid in the top right corner of the main part. */
  logo?: string;
  /** The measurement of the main part's sound between start and end (analysis.ts). */
  loudness?: Loudness | null;
  output: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
}

/**
 * The main part's picture goes out as it came in when nothing is drawn on it or joined to it and
 * the source is what the output would be anyway (H.264 4:2:0, even size, at most 30 fps), with a
 * keyframe close enough before the start: the start of that keyframe, else null.
 */
export async function copyStart(job: Pick<EpisodeRender, 'main' | 'start' | 'logo' | 'intro' | 'outro' | 'signal'>): Promise<number | null> {
  const video = job.main.info.video;
  if (job.logo || job.intro || job.outro || !video) return null;
  if (video.fps > 30 || video.width % 2 || video.height % 2) return null;
  const cut = await keyframeBefore(job.main.file, job.start, MAX_CUT_SHIFT_SECONDS, job.signal);
  // A turned picture is rendered upright, as the clips and the outcome's size see it.
  if (!cut || cut.rotation || !COPYABLE.codecs.includes(cut.codec) || !COPYABLE.pixFmts.includes(cut.pixFmt)) return null;
  // -ss is written to the millisecond: rounded up, so it never lands before the keyframe (which
  // would make ffmpeg seek to the one before).
  return Math.ceil((cut.keyframeSeconds + 1e-6) * 1000) / 1000;
}

/**
 * The segments of an episode. Main segments start on the output's frame grid (`segmentSeconds`
 * rounded to whole frames), so their frames add up to the unsplit render's.
 */
export function planEpisode(input: {
  main: MediaInfo;
  start: number;
  end: number;
  introSeconds?: number;
  outroSeconds?: number;
  segmentSeconds: number;
}): EpisodeLayout {
  const fps = outputFps(input.main);
  const size = input.main.video ?? { width: 1280, height: 720 };
  const frames = (seconds: number | undefined) => (seconds ? Math.max(1, Math.round(seconds * fps)) : 0);
  const introFrames = frames(input.introSeconds);
  const mainFrames = frames(input.end - input.start);
  const outroFrames = frames(input.outroSeconds);
  const step = Number.isFinite(input.segmentSeconds) ? Math.max(1, Math.round(input.segmentSeconds * fps)) : mainFrames;
  const video: VideoPiece[] = [];
  if (introFrames) video.push({ part: 'intro', from: 0, frames: introFrames });
  for (let first = 0; first < mainFrames; first += step) {
    video.push({ part: 'main', from: input.start + first / fps, frames: Math.min(step, mainFrames - first) });
  }
  if (outroFrames) video.push({ part: 'outro', from: 0, frames: outroFrames });
  return { fps, width: even(size.width), height: even(size.height), introFrames, mainFrames, outroFrames, start: input.start, video };
}

/**
 * One video segment, video only. Seeking a quarter frame early keeps the frame that sits exactly on
 * the boundary whatever the rounding of -ss; timestamps restart at 0 so every segment lays the same
 * frame grid; a source that ends early repeats its last frame up to the planned count.
 */
export async function renderVideoPiece(job: {
  piece: VideoPiece;
  layout: EpisodeLayout;
  file: string;
  logo?: string;
  output: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
}): Promise<void> {
  const { piece, layout } = job;
  const seek = Math.max(0, piece.from - 0.25 / layout.fps);
  const input = inputArgs('video', job.file, ['-ss', seek.toFixed(6), '-t', (piece.frames / layout.fps + 1).toFixed(6)]);
  const { width, height } = layout;
  const fitted = `[0:v]setpts=PTS-STARTPTS,scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black,fps=${layout.fps},setsar=1,format=yuv420p`;
  const logoSize = even(Math.min(width, height) / 6);
  const margin = even(Math.min(width, height) / 30);
  const withLogo = job.logo && piece.part === 'main';
  const graph = withLogo
    ? `${fitted}[f];[1:v]scale=${logoSize}:-1[logo];[f][logo]overlay=W-w-${margin}:${margin},format=yuv420p,tpad=stop_mode=clone:stop=-1[v]`
    : `${fitted},tpad=stop_mode=clone:stop=-1[v]`;
  await ffmpeg(
    [
      ...input,
      ...(withLogo && job.logo ? inputArgs('png', job.logo) : []),
      '-filter_complex', graph, '-map', '[v]', '-an', '-frames:v', String(piece.frames),
      '-c:v', 'libx264', '-preset', job.settings.preset, '-crf', String(job.settings.crf), '-pix_fmt', 'yuv420p',
      '-f', 'mp4', job.output,
    ],
    job.signal,
  );
}

/**
 * The episode's sound, once over the whole: each part normalised as before and cut (or padded with
 * silence) to exactly its picture's frames, so the sound stays in sync across the parts.
 */
export async function renderAudioTrack(job: {
  layout: EpisodeLayout;
  main: MediaInput;
  intro?: MediaInput;
  outro?: MediaInput;
  loudness?: Loudness | null;
  output: string;
  signal?: AbortSignal;
}): Promise<void> {
  const { layout } = job;
  const samples = (frames: number) => Math.round((frames / layout.fps) * AUDIO_RATE);
  const parts: { segment: Segment; frames: number }[] = [];
  if (job.intro && layout.introFrames) parts.push({ segment: await brandSegment(job.intro, job.signal), frames: layout.introFrames });
  const mainSeconds = layout.mainFrames / layout.fps;
  parts.push({
    segment: {
      inputArgs: inputArgs('video', job.main.file, ['-ss', layout.start.toFixed(6), '-t', (mainSeconds + 1).toFixed(6)]),
      info: job.main.info,
      duration: mainSeconds,
      loudness: job.loudness ?? null,
    },
    frames: layout.mainFrames,
  });
  if (job.outro && layout.outroFrames) parts.push({ segment: await brandSegment(job.outro, job.signal), frames: layout.outroFrames });
  const chains = parts.map(({ segment, frames }, i) => `${audioChain(i, segment, '')},apad,atrim=end_sample=${samples(frames)}[a${i}]`);
  const graph = `${chains.join(';')};${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[outa]`;
  await ffmpeg(
    [...parts.flatMap((p) => p.segment.inputArgs), '-filter_complex', graph, '-map', '[outa]', '-vn', ...AUDIO_OUT, '-f', 'mp4', job.output],
    job.signal,
  );
}

/**
 * The segments joined as they are (concat demuxer, stream copy) with the sound muxed in. Each is a
 * file or a signed URL (the join reads the pieces from Storage as it writes the episode).
 */
export async function joinEpisode(job: { videoFiles: string[]; audioFile: string; dir: string; output: string; signal?: AbortSignal }): Promise<void> {
  const list = path.join(job.dir, 'segments.txt');
  const segments = concatInput(job.videoFiles, list);
  await writeFile(list, segments.text, 'utf8');
  await ffmpeg(
    [
      ...segments.args,
      ...inputArgs('video', job.audioFile),
      '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-movflags', '+faststart', job.output,
    ],
    job.signal,
  );
}

/**
 * Several uploaded parts are one episode, joined in the order they were submitted. A keyframe every
 * 2 s (at 30 fps), so the episode can copy this picture whatever the trim (render.ts).
 */
export async function joinParts(parts: MediaInput[], output: string, settings: EncodeSettings, signal: AbortSignal): Promise<MediaInput> {
  const first = parts[0].info.video ?? { width: 1280, height: 720 };
  const inputs = parts.flatMap((p) => inputArgs('video', p.file));
  const chains = parts.map((p, i) => {
    const audio = p.info.hasAudio
      ? `[${i}:a]aresample=48000,aformat=channel_layouts=stereo[a${i}]`
      : `anullsrc=r=48000:cl=stereo,atrim=duration=${p.info.durationSeconds.toFixed(3)}[a${i}]`;
    return `[${i}:v]scale=${first.width}:${first.height}:force_original_aspect_ratio=decrease,pad=${first.width}:${first.height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30,format=yuv420p[v${i}];${audio}`;
  });
  const graph = `${chains.join(';')};${parts.map((_, i) => `[v${i}][a${i}]`).join('')}concat=n=${parts.length}:v=1:a=1[v][a]`;
  await ffmpeg(
    [...inputs, '-filter_complex', graph, '-map', '[v]', '-map', '[a]', '-c:v', 'libx264', '-preset', settings.preset, '-crf', '18', '-g', '60', '-c:a', 'aac', '-b:a', '192k', output],
    signal,
  );
  return { file: output, info: await probe(output, signal) };
}

/** The picture copied from the keyframe at `copyFrom`, the sound normalised. */
export async function renderCopiedEpisode(job: { main: MediaInput; copyFrom: number; end: number; loudness?: Loudness | null; output: string; signal?: AbortSignal }): Promise<void> {
  const main: Segment = { inputArgs: trimmedInput(job.main.file, job.copyFrom, job.end), info: job.main.info, duration: job.end - job.copyFrom, loudness: job.loudness ?? null };
  await ffmpeg(
    [...main.inputArgs, '-filter_complex', audioChain(0, main, '[outa]'), '-map', '0:v:0', '-map', '[outa]', '-c:v', 'copy', ...AUDIO_OUT, job.output],
    job.signal,
  );
}

/**
 * The episode's sound as podcast apps expect it: its AAC track (already normalised to -16 LUFS)
 * copied as it is into an M4A that starts playing before it is all downloaded.
 */
export async function extractPodcastAudio(episode: string, output: string, signal?: AbortSignal): Promise<void> {
  await ffmpeg([...inputArgs('video', episode), '-map', '0:a:0', '-vn', '-c:a', 'copy', '-movflags', '+faststart', '-f', 'ipod', output], signal);
}

/** A clip's frame: 9:16 (the clip height tall) or 16:9 (the clip height wide), in even sizes. */
export function clipFrameSize(clipHeight: number, aspect: ClipFrame['aspect']): { width: number; height: number } {
  const long = even(clipHeight);
  const short = even((long * 9) / 16);
  return aspect === 'portrait' ? { width: short, height: long } : { width: long, height: short };
}

interface ClipRender {
  main: MediaInput;
  start: number;
  end: number;
  intro?: MediaInput;
  outro?: MediaInput;
  frame: ClipFrame;
  colours: BrandColours;
  /** Captions (or the title), and the framing on the speaker, of the styled moment (not the clip intro/outro). */
  text?: ClipText;
  /** PNG overlaid in the top right corner of the moment, inside the safe area. */
  logo?: string;
  /** The episode's measurement: the moment is cut from the same sound and gets the same gain. */
  loudness?: Loudness | null;
  output: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
}

/**
 * One clip: the moment styled by the frame's look and the brand colours, with the clip intro/outro
 * (filling a 9:16 frame; whole, on the primary colour, in a 16:9 one).
 */
export async function renderClip(job: ClipRender): Promise<void> {
  const { width, height } = clipFrameSize(job.settings.clipHeight, job.frame.aspect);
  const fitBrand =
    job.frame.aspect === 'portrait'
      ? `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`
      : `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=0x${job.colours.primary}`;
  const segments: Segment[] = [];
  if (job.intro) segments.push(await brandSegment(job.intro, job.signal));
  const mainIndex = segments.length;
  segments.push({ inputArgs: trimmedInput(job.main.file, job.start, job.end), info: job.main.info, duration: job.end - job.start, loudness: job.loudness ?? null });
  if (job.outro) segments.push(await brandSegment(job.outro, job.signal));

  const logoIndex = segments.length;
  // A sixth of the width, clear of the platforms' top bar and side buttons.
  const logoSize = even(width / 6);
  const { args, graph } = buildConcat(
    outputFps(job.main.info),
    segments,
    (label, index) =>
      index === mainIndex
        ? `${label}${clipStyleFilter(job.frame, job.colours, width, height, job.text)}`
        : `${label}${fitBrand}`,
    job.logo ? inputArgs('png', job.logo) : [],
    (index, label) =>
      job.logo && index === mainIndex
        ? `[${logoIndex}:v]scale=${logoSize}:-1[logo];${label}[logo]overlay=W-w-${even(width * SAFE_AREA.side)}:${even(height * SAFE_AREA.top)}`
        : null,
  );
  await ffmpeg(
    [...args, '-filter_complex', graph, '-map', '[cv]', '-map', '[outa]', ...encodeArgs(job.settings, job.settings.clipPreset), job.output],
    job.signal,
  );
}
