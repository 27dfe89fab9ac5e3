// One submission's processing as the worker reads it: private.processing_job() answers it, with
// the attempt's options normalised by SQL, and the worker parses it here before it does anything.
import { z } from 'zod';
import { ADMIN_CLIP_STYLES } from '../domain/admin-resubmit.ts';
import { episodeContentSchema } from '../domain/episode-content.ts';
import { CLIP_STYLES } from '../domain/episodes.ts';
import { storedOutputSchema } from '../domain/episode-page.ts';
import { PROCESSING_STATUSES } from '../domain/processing.ts';

/** Every clip style a submission may carry: the subscriber's three and the administrators' two more. */
export const RENDERED_CLIP_STYLES = [...new Set([...CLIP_STYLES, ...ADMIN_CLIP_STYLES])] as [string, ...string[]];
export type RenderedClipStyle = (typeof CLIP_STYLES)[number] | (typeof ADMIN_CLIP_STYLES)[number];

/**
 * The one decision on the administrators' styles (issue 40, item 2): PORTRAIT is the default 9:16
 * look; LANDSCAPE makes 16:9 clips of the same look (the picture whole, captions and logo on it).
 */
/** How a clip is framed: the look of one of the subscriber's styles, on a 9:16 or a 16:9 frame. */
export interface ClipFrame {
  look: (typeof CLIP_STYLES)[number];
  aspect: 'portrait' | 'landscape';
}

export function clipFrameOf(style: RenderedClipStyle): ClipFrame {
  switch (style) {
    case 'PORTRAIT':
      return { look: 'DEFAULT', aspect: 'portrait' };
    case 'LANDSCAPE':
      return { look: 'DEFAULT', aspect: 'landscape' };
    default:
      return { look: style, aspect: 'portrait' };
  }
}

const hhmmss = z.string().regex(/^([01]?\d|2[0-3]):[0-5]\d:[0-5]\d$/);

export const processingJobSchema = z.object({
  id: z.uuid(),
  status: z.enum(PROCESSING_STATUSES),
  userId: z.uuid().nullable(),
  /** The episode (null for an administrator's resubmission of files alone). */
  episodeId: z.uuid().nullable(),
  submissionLogId: z.uuid(),
  title: z.string().min(1),
  /** The subscriber gave or accepted the title; else the worker suggests one from the words. */
  titleConfirmed: z.boolean(),
  guests: z.array(z.string()),
  files: z.array(z.string().min(1)).min(1),
  options: z.object({
    startTimestamp: hhmmss.nullable(),
    endTimestamp: hhmmss.nullable(),
    addLogo: z.boolean(),
    addIntroOutro: z.boolean(),
    clipStyle: z.enum(RENDERED_CLIP_STYLES).transform((style) => style as RenderedClipStyle),
    daysBetweenClips: z.number().int().positive(),
  }),
  clipsPerEpisode: z.number().int().nonnegative(),
  postAutomatically: z.boolean(),
  brand: z.object({
    /** The profile's Google Fonts family, for captions. */
    font: z.string().nullable(),
    primary: z.string().nullable(),
    secondary: z.string().nullable(),
    tertiary: z.string().nullable(),
    logoPath: z.string().nullable(),
    videoIntroPath: z.string().nullable(),
    videoOutroPath: z.string().nullable(),
    clipIntroPath: z.string().nullable(),
    clipOutroPath: z.string().nullable(),
  }),
  /** The profile's podcast details, which the writing engine writes with (each null when blank). */
  podcast: z.object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    /** The show's author as the feed names it: its host, usually. */
    author: z.string().nullable(),
    /** The subscriber's keywords for the show, as they typed them. */
    keywords: z.string().nullable(),
  }),
  /** The caps of the subscriber's plan. */
  limits: z.object({
    maxVideoPixels: z.number().int().positive(),
    maxFrameRate: z.number().positive(),
    maxEpisodeSeconds: z.number().positive(),
    timeLimitSeconds: z.number().int().positive(),
  }),
  driveFolderId: z.string().nullable(),
  outputs: z.array(storedOutputSchema),
  submittedAt: z.coerce.date(),
  /** The podcast's language from the profile (ISO 639-1; English when unset). */
  language: z.string(),
  /** What an earlier attempt recorded (a blog post already on WordPress is not posted again). */
  content: z.nullable(episodeContentSchema),
});
export type ProcessingJob = z.infer<typeof processingJobSchema>;

/** The job as SQL answers it; a row that does not parse is a bug to see, not to work around. */
export function parseProcessingJob(answer: unknown): ProcessingJob | null {
  if (answer === null) return null;
  return processingJobSchema.parse(answer);
}
