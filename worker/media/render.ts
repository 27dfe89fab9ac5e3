// The ffmpeg filter graphs for the finished episode and the 9:16 clips.
import { SAFE_AREA } from './captions.ts';
import { ffmpeg, inputArgs, type MediaInfo } from './ffmpeg.ts';
import { clipStyleFilter, type BrandColours, type ClipStyle, type ClipText } from './styles.ts';

/** EBU R128 targets for podcast/streaming delivery: -16 LUFS integrated, -1.5 dBTP peak. */
const LOUDNORM = 'loudnorm=I=-16:TP=-1.5:LRA=11';
const AUDIO_RATE = 48000;
/** Output frame rate: the episode's own, at most 30 (clips for social platforms need no more). */
const outputFps = (main: MediaInfo) => Math.min(30, main.video?.fps ?? 30);

export interface EncodeSettings {
  /** x264 preset: 'veryfast' in production, 'ultrafast' in tests. */
  preset: string;
  crf: number;
  /** Height of the 9:16 clips (1920 in production); the width follows. */
  clipHeight: number;
}

export interface MediaInput {
  file: string;
  info: MediaInfo;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

function encodeArgs(settings: EncodeSettings): string[] {
  return [
    '-c:v', 'libx264', '-preset', settings.preset, '-crf', String(settings.crf), '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-ar', String(AUDIO_RATE), '-ac', '2',
    '-movflags', '+faststart',
  ];
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
    if (segment.info.hasAudio) {
      chains.push(`[${i}:a]aresample=${AUDIO_RATE},aformat=channel_layouts=stereo,asetpts=PTS-STARTPTS[a${i}]`);
    } else {
      chains.push(
        `anullsrc=r=${AUDIO_RATE}:cl=stereo,atrim=duration=${segment.duration.toFixed(3)},asetpts=PTS-STARTPTS[a${i}]`,
      );
    }
    pairs.push(`[v${i}][a${i}]`);
  });
  chains.push(`${pairs.join('')}concat=n=${segments.length}:v=1:a=1[cv][ca]`);
  chains.push(`[ca]${LOUDNORM},aresample=${AUDIO_RATE}[outa]`);
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
  output: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
}

/** The full episode: trimmed, intro and outro joined, logo overlaid, loudness normalised. */
export async function renderEpisode(job: EpisodeRender): Promise<void> {
  const size = job.main.info.video ?? { width: 1280, height: 720 };
  const width = even(size.width);
  const height = even(size.height);
  const segments: Segment[] = [];
  if (job.intro) segments.push({ inputArgs: inputArgs('video', job.intro.file), info: job.intro.info, duration: job.intro.info.durationSeconds });
  const mainIndex = segments.length;
  segments.push({
    inputArgs: trimmedInput(job.main.file, job.start, job.end),
    info: job.main.info,
    duration: job.end - job.start,
  });
  if (job.outro) segments.push({ inputArgs: inputArgs('video', job.outro.file), info: job.outro.info, duration: job.outro.info.durationSeconds });

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
    [...args, '-filter_complex', graph, '-map', '[cv]', '-map', '[outa]', ...encodeArgs(job.settings), job.output],
    job.signal,
  );
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
  output: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
}

/** One 9:16 clip: the moment styled by clip style and brand colours, with the clip intro/outro. */
export async function renderClip(job: ClipRender): Promise<void> {
  const height = even(job.settings.clipHeight);
  const width = even((height * 9) / 16);
  const segments: Segment[] = [];
  if (job.intro) segments.push({ inputArgs: inputArgs('video', job.intro.file), info: job.intro.info, duration: job.intro.info.durationSeconds });
  const mainIndex = segments.length;
  segments.push({ inputArgs: trimmedInput(job.main.file, job.start, job.end), info: job.main.info, duration: job.end - job.start });
  if (job.outro) segments.push({ inputArgs: inputArgs('video', job.outro.file), info: job.outro.info, duration: job.outro.info.durationSeconds });

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
    [...args, '-filter_complex', graph, '-map', '[cv]', '-map', '[outa]', ...encodeArgs(job.settings), job.output],
    job.signal,
  );
}
