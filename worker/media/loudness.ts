// EBU R128 normalisation in two passes: the episode's audio is measured once (loudnorm's first
// pass, printed as JSON, in the same decode as the clip analysis: analysis.ts), and every render
// (the episode, each clip) applies a linear gain from that measurement instead of running a
// dynamic single pass of its own.
import type { Loudness } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';
import { ffmpeg, inputArgs, type MediaInput } from './ffmpeg.ts';

/** EBU R128 targets for podcast/streaming delivery: -16 LUFS integrated, -1.5 dBTP peak. */
const TARGET = 'I=-16:TP=-1.5:LRA=11';

/** The first pass: measures and prints JSON on stderr at the end (the audio passes unchanged in level). */
export const MEASURE_FILTER = `loudnorm=${TARGET}:print_format=json`;

/**
 * The measurement in ffmpeg's log, or null when there is none or it is not finite (digital
 * silence measures -inf: nothing to scale).
 */
export function parseLoudness(log: string): Loudness | null {
  const json = /\{\s*"input_i"[\s\S]*?\}/.exec(log);
  if (!json) return null;
  const raw = JSON.parse(json[0]) as Record<string, string>;
  const loudness = {
    inputI: Number(raw.input_i),
    inputTp: Number(raw.input_tp),
    inputLra: Number(raw.input_lra),
    inputThresh: Number(raw.input_thresh),
    targetOffset: Number(raw.target_offset),
  };
  return Object.values(loudness).every(Number.isFinite) ? loudness : null;
}

/**
 * The second pass: a linear gain to the target from `measured` (loudnorm itself falls back to its
 * dynamic mode when the gain would push the true peak over -1.5 dBTP). Unmeasured: the dynamic
 * single pass, as before measurements were shared.
 */
export function normaliseFilter(measured: Loudness | null | undefined): string {
  if (!measured) return `loudnorm=${TARGET}`;
  const m = measured;
  return (
    `loudnorm=${TARGET}:measured_I=${m.inputI}:measured_TP=${m.inputTp}:measured_LRA=${m.inputLra}` +
    `:measured_thresh=${m.inputThresh}:offset=${m.targetOffset}:linear=true`
  );
}

/** Measures the whole of `file`'s audio (a brand intro or outro: seconds long). */
async function measureFile(file: string, signal?: AbortSignal): Promise<Loudness | null> {
  const { stderr } = await ffmpeg([...inputArgs('video', file), '-vn', '-af', MEASURE_FILTER, '-f', 'null', '-'], signal);
  return parseLoudness(stderr);
}

// One measurement per brand video per job: the clip intro is in every clip. Keyed by the job's
// MediaInput objects, so it goes when the job does.
const measured = new WeakMap<MediaInput, Promise<Loudness | null>>();

/** The measurement of a whole brand video, made once per MediaInput. */
export function loudnessOf(input: MediaInput, signal?: AbortSignal): Promise<Loudness | null> {
  let result = measured.get(input);
  if (!result) {
    result = measureFile(input.file, signal);
    // A failed or aborted measurement is not kept: a retry measures again.
    result.catch(() => measured.delete(input));
    measured.set(input, result);
  }
  return result;
}
