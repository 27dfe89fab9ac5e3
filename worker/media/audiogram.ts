// An audio-only episode's picture (issue 44, item 3): an audiogram the rest of the pipeline treats
// as the episode's video. The podcast's artwork (else the logo) on the brand's primary colour, and
// under it a waveform in a readable brand colour that moves with the sound. 16:9 at 720p and 15
// frames a second: the episode for YouTube shows all of it, and the 9:16 clips (cut from the middle
// of the frame, no face to follow) keep the artwork and the waveform whole; their captions and logo
// are the clips' own, as for any video.
import path from 'node:path';
import { readableOn } from './contrast.ts';
import { ffmpeg, probe, type MediaInput } from './ffmpeg.ts';
import type { BrandColours } from './styles.ts';
import type { EncodeSettings } from '../config.ts';

export const AUDIOGRAM = { width: 1280, height: 720, fps: 15, artwork: 400, artworkTop: 70, waveHeight: 180, waveTop: 500 } as const;

/** ffmpeg's spelling of a brand colour ('1A2B3C' is 0x1A2B3C). */
const colour = (hex: string) => `0x${hex}`;

/**
 * The audiogram of `audio` (a file or URL with sound and no picture) into `output`, its sound
 * copied as AAC. `image`: the artwork or logo (PNG or JPEG), or none (the waveform alone).
 */
export async function renderAudiogram(
  job: { audio: MediaInput; image: string | undefined; colours: BrandColours; dir: string; output: string; encode: EncodeSettings },
  signal?: AbortSignal,
): Promise<MediaInput> {
  const { width, height, fps, artwork, artworkTop, waveHeight, waveTop } = AUDIOGRAM;
  const wave = readableOn(job.colours.primary, [job.colours.secondary, job.colours.tertiary], 3);
  const seconds = job.audio.info.durationSeconds.toFixed(3);
  // The still part (the colour and the artwork) drawn once, then held for every frame: composing it
  // per frame (or decoding a looped image per frame) took most of the time.
  const still = path.join(job.dir, 'audiogram-still.png');
  const artChain = `scale=${artwork}:${artwork}:force_original_aspect_ratio=decrease,pad=${artwork}:${artwork}:(ow-iw)/2:(oh-ih)/2:color=${colour(job.colours.primary)}`;
  await ffmpeg(
    [
      '-f', 'lavfi', '-i', `color=c=${colour(job.colours.primary)}:s=${width}x${height}`,
      ...(job.image ? ['-i', job.image, '-filter_complex', `[1:v]${artChain}[art];[0:v][art]overlay=(W-w)/2:${artworkTop}`] : []),
      '-frames:v', '1', still,
    ],
    signal,
  );
  const graph = [
    `[1:v]format=yuv420p,loop=loop=-1:size=1,setpts=N/${fps}/TB[still]`,
    `[0:a]aformat=channel_layouts=mono,showwaves=s=${width}x${waveHeight}:mode=cline:rate=${fps}:colors=${colour(wave)}:scale=sqrt,format=yuva420p[wave]`,
    `[still][wave]overlay=0:${waveTop}:shortest=1:format=yuv420[v]`,
  ].join(';');
  await ffmpeg(
    [
      '-i', job.audio.file, '-i', still,
      '-filter_complex', graph,
      '-map', '[v]', '-map', '0:a:0',
      // An intermediate the episode's pieces encode again: fast, and sharp enough for them.
      '-r', String(fps), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', String(Math.max(12, job.encode.crf - 4)), '-tune', 'stillimage', '-g', String(fps * 2),
      '-c:a', 'aac', '-b:a', '192k',
      '-t', seconds,
      job.output,
    ],
    signal,
  );
  return { file: job.output, info: await probe(job.output, signal) };
}
