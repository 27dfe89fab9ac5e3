// One decoding pass over the episode's audio: loudness per window (astats RMS) and the silences
// (silencedetect), the inputs of the clip heuristic in clip-selection.ts, and, from the same
// decode, the EBU R128 measurement every render normalises with (loudness.ts).
import { ffmpeg, inputArgs } from './ffmpeg.ts';
import type { AudioProfile, Interval } from './clip-selection.ts';
import type { Loudness } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { MEASURE_FILTER, parseLoudness } from './loudness.ts';

const ANALYSIS_WINDOW_SECONDS = 0.5;
const SAMPLE_RATE = 8000;
/** Quieter than this counts as silence (speech pauses in a normal recording sit well below). */
const SILENCE_NOISE_DB = -35;
/** Pauses shorter than this are breaths between words, not cut points. */
const SILENCE_MIN_SECONDS = 0.3;

/** Parses ffmpeg's log of astats (via ametadata) and silencedetect into an AudioProfile. */
export function parseAnalysisLog(log: string, durationSeconds: number): AudioProfile {
  const windowDb: number[] = [];
  const silences: Interval[] = [];
  let openSilence: number | null = null;
  for (const line of log.split('\n')) {
    const rms = /lavfi\.astats\.Overall\.RMS_level=(-?inf|-?[\d.]+)/.exec(line);
    if (rms) {
      windowDb.push(rms[1].endsWith('inf') ? -120 : Math.max(-120, Number(rms[1])));
      continue;
    }
    const start = /silence_start: (-?[\d.]+)/.exec(line);
    if (start) {
      openSilence = Math.max(0, Number(start[1]));
      continue;
    }
    const end = /silence_end: ([\d.]+)/.exec(line);
    if (end && openSilence !== null) {
      silences.push({ start: openSilence, end: Number(end[1]) });
      openSilence = null;
    }
  }
  // A silence running to the end of the input is never closed by silencedetect.
  if (openSilence !== null) silences.push({ start: openSilence, end: durationSeconds });
  return { windowSeconds: ANALYSIS_WINDOW_SECONDS, windowDb, silences, durationSeconds };
}

/**
 * Analyses the audio of `file` between `startSeconds` and `startSeconds + durationSeconds`; the
 * profile carries the range's loudness measurement (null when unmeasurable, e.g. silence).
 */
export async function analyseAudio(
  file: string,
  startSeconds: number,
  durationSeconds: number,
  signal?: AbortSignal,
): Promise<AudioProfile & { loudness: Loudness | null }> {
  const samplesPerWindow = Math.round(SAMPLE_RATE * ANALYSIS_WINDOW_SECONDS);
  const { stderr } = await ffmpeg(
    [
      ...inputArgs('video', file, ['-ss', String(startSeconds), '-t', String(durationSeconds)]),
      '-filter_complex',
      `[0:a]asplit=2[profile][r128];[r128]${MEASURE_FILTER}[measured];[profile]` + [
        `aresample=${SAMPLE_RATE}`,
        'pan=mono|c0=c0',
        `asetnsamples=n=${samplesPerWindow}`,
        'astats=metadata=1:reset=1',
        'ametadata=mode=print:key=lavfi.astats.Overall.RMS_level',
        `silencedetect=noise=${SILENCE_NOISE_DB}dB:d=${SILENCE_MIN_SECONDS}`,
      ].join(',') + '[analysed]',
      '-map', '[analysed]', '-f', 'null', '-',
      '-map', '[measured]', '-f', 'null', '-',
    ],
    signal,
  );
  return { ...parseAnalysisLog(stderr, durationSeconds), loudness: parseLoudness(stderr) };
}
