// The ffmpeg filter graphs for the finished episode and the 9:16 clips.
import { SAFE_AREA } from './captions.ts';
import { ffmpeg, inputArgs, keyframeBefore, type MediaInfo } from './ffmpeg.ts';
import { loudnessOf, normaliseFilter, type Loudness } from './loudness.ts';
import { clipStyleFilter, type BrandColours, type ClipStyle, type ClipText } from './styles.ts';

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

export interface EncodeSettings {
  /** x264 preset of the episode (and a join of parts): X264_PRESETS in production, 'ultrafast' in tests. */
  preset: string;
  /** x264 preset of the clips. */
  clipPreset: string;
  crf: number;
  /** Height of the 9:16 clips (1920 in production); the width follows. */
  clipHeight: number;
}

export interface MediaInput {
  file: string;
  info: MediaInfo;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

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
  // loudnorm works at 192 kHz: back to the output rate after it.
  return `[${input}:a]aresample=${AUDIO_RATE},aformat=channel_layouts=stereo,asetpts=PTS-STARTPTS,${normaliseFilter(segment.loudness)},aresample=${AUDIO_RATE}${label}`;
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
  const loudness = input.info.hasAudio ? await loudnessOf(input, signal) : null;
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

interface EpisodeRender {
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

/** How the episode was made: its picture copied from `start` (a keyframe), or re-encoded. */
export type EpisodeVideo = { copied: true; start: number } | { copied: false };

/**
 * The main part's picture goes out as it came in when nothing is drawn on it or joined to it and
 * the source is what the output would be anyway (H.264 4:2:0, even size, at most 30 fps), with a
 * keyframe close enough before the start: the start of that keyframe, else null.
 */
async function copyStart(job: EpisodeRender): Promise<number | null> {
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

/** The full episode: trimmed, intro and outro joined, logo overlaid, loudness normalised. */
export async function renderEpisode(job: EpisodeRender): Promise<EpisodeVideo> {
  const copyFrom = await copyStart(job);
  if (copyFrom !== null) {
    const main: Segment = { inputArgs: trimmedInput(job.main.file, copyFrom, job.end), info: job.main.info, duration: job.end - copyFrom, loudness: job.loudness ?? null };
    await ffmpeg(
      [...main.inputArgs, '-filter_complex', audioChain(0, main, '[outa]'), '-map', '0:v:0', '-map', '[outa]', '-c:v', 'copy', ...AUDIO_OUT, job.output],
      job.signal,
    );
    return { copied: true, start: copyFrom };
  }
  const size = job.main.info.video ?? { width: 1280, height: 720 };
  const width = even(size.width);
  const height = even(size.height);
  const segments: Segment[] = [];
  if (job.intro) segments.push(await brandSegment(job.intro, job.signal));
  const mainIndex = segments.length;
  segments.push({
    inputArgs: trimmedInput(job.main.file, job.start, job.end),
    info: job.main.info,
    duration: job.end - job.start,
    loudness: job.loudness ?? null,
  });
  if (job.outro) segments.push(await brandSegment(job.outro, job.signal));

  const logoIndex = segments.length;
  const logoSize = even(Math.min(width, height) / 6);
  const margin = even(Math.min(width, height) / 30);
  const { args, graph } = buildConcat(
    outputFps(job.main.info),
    segments,
    (label) =>
      `${label}scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black`,
    job.logo ? inputArgs('png', job.logo) : [],
    (index, label) =>
      job.logo && index === mainIndex
        ? `[${logoIndex}:v]scale=${logoSize}:-1[logo];${label}[logo]overlay=W-w-${margin}:${margin}`
        : null,
  );
  await ffmpeg(
    [...args, '-filter_complex', graph, '-map', '[cv]', '-map', '[outa]', ...encodeArgs(job.settings, job.settings.preset), job.output],
    job.signal,
  );
  return { copied: false };
}

interface ClipRender {
  main: MediaInput;
  start: number;
  end: number;
  intro?: MediaInput;
  outro?: MediaInput;
  style: ClipStyle;
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

/** One 9:16 clip: the moment styled by clip style and brand colours, with the clip intro/outro. */
export async function renderClip(job: ClipRender): Promise<void> {
  const height = even(job.settings.clipHeight);
  const width = even((height * 9) / 16);
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
        ? `${label}${clipStyleFilter(job.style, job.colours, width, height, job.text)}`
        : `${label}scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`,
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
