// A submission's processing plan (private.processing_plans.plan): what the submission job found
// and chose, read back by every piece and the join on any worker (docs/decisions.md, "Processing
// in pieces"). It carries its version: a plan another version of the worker wrote is not read as
// this one (parsePlan answers null), so no piece renders from a shape it does not know.
import { z } from 'zod';
import { transcriptSchema } from '../domain/transcript.ts';
import { episodeWritingSchema } from './episode-writing.ts';

/** The version of the plan's shape this code writes and reads (3: the writing engine's texts). */
export const PLAN_VERSION = 3;

/** A video file's facts, as ffprobe reads them. */
export const mediaInfoSchema = z.object({
  durationSeconds: z.number().positive(),
  video: z.object({ width: z.number().int().positive(), height: z.number().int().positive(), fps: z.number().positive() }).nullable(),
  hasAudio: z.boolean(),
});
export type MediaInfo = z.infer<typeof mediaInfoSchema>;

/** loudnorm's first-pass measurement (EBU R128), as numbers. */
export const loudnessSchema = z.object({
  inputI: z.number(),
  inputTp: z.number(),
  inputLra: z.number(),
  inputThresh: z.number(),
  targetOffset: z.number(),
});
export type Loudness = z.infer<typeof loudnessSchema>;

/** A video segment: `frames` frames of one part, from `from` seconds into the part's file. */
export const videoPieceSchema = z.object({
  part: z.enum(['intro', 'main', 'outro']),
  from: z.number().nonnegative(),
  frames: z.number().int().positive(),
});
export type VideoPiece = z.infer<typeof videoPieceSchema>;

/** The re-encoded episode's layout: frame rate, size, each part's frames, and its video segments. */
export const episodeLayoutSchema = z.object({
  fps: z.number().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  introFrames: z.number().int().nonnegative(),
  mainFrames: z.number().int().positive(),
  outroFrames: z.number().int().nonnegative(),
  /** Where the main part starts in the main file (seconds). */
  start: z.number().nonnegative(),
  video: z.array(videoPieceSchema).min(1),
});
export type EpisodeLayout = z.infer<typeof episodeLayoutSchema>;

/** A brand video as the submission job found it: the pieces neither probe nor measure it again. */
export const brandVideoSchema = z.object({ path: z.string(), info: mediaInfoSchema, loudness: loudnessSchema.nullable() });
export type BrandVideo = z.infer<typeof brandVideoSchema>;

/** A moment chosen for a clip, in seconds of the trimmed episode. */
export const clipMomentSchema = z.object({
  start: z.number().nonnegative(),
  end: z.number().positive(),
  /** How good a moment it is (0..1 since the reason came), and why it was chosen (worker/media/clip-selection.ts). */
  score: z.number(),
  /** Plans written before it have no reason: the same version reads them, so their clips can still be edited. */
  reason: z.string().default(''),
  /** Chosen from the transcript: the first sentence's index and one past the last. */
  sentences: z.object({ first: z.number().int().nonnegative(), end: z.number().int().positive() }).optional(),
  /** Whether each edge sits at a detected pause (or the episode's start or end). */
  startsAtPause: z.boolean(),
  endsAtPause: z.boolean(),
});
export type ClipMoment = z.infer<typeof clipMomentSchema>;

export const submissionPlanSchema = z.object({
  version: z.literal(PLAN_VERSION),
  planId: z.uuid(),
  title: z.string().min(1),
  /** The episode as the pieces read it: the subscriber's file, or the parts joined by the submission job. */
  main: z.object({ bucket: z.string(), path: z.string(), info: mediaInfoSchema }),
  start: z.number().nonnegative(),
  end: z.number().positive(),
  /** The brand files the submission job accepted (brand-assets paths). */
  brand: z.object({
    intro: brandVideoSchema.nullable(),
    outro: brandVideoSchema.nullable(),
    clipIntro: brandVideoSchema.nullable(),
    clipOutro: brandVideoSchema.nullable(),
    logo: z.string().nullable(),
  }),
  loudness: loudnessSchema.nullable(),
  episode: z.discriminatedUnion('copied', [
    z.object({ copied: z.literal(true), start: z.number().nonnegative() }),
    z.object({ copied: z.literal(false), layout: episodeLayoutSchema }),
  ]),
  clipIntroSeconds: z.number().nonnegative(),
  clips: z.array(clipMomentSchema),
  transcript: z.nullable(transcriptSchema),
  keywords: z.array(z.string()),
  /** What the writing engine wrote from the transcript (null without one). */
  writing: episodeWritingSchema.nullable(),
});
export type SubmissionPlan = z.infer<typeof submissionPlanSchema>;

/** The plan as stored, or null when it is not a plan of this version (a worker of another version wrote it). */
export function parsePlan(stored: unknown): SubmissionPlan | null {
  const parsed = submissionPlanSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
