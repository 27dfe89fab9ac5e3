// Episode submission rules (spec sections 3, 4, 5 and 9), shared by the SPA's dialog and the
// `api` function; submit_episode() in SQL re-checks every one of them.
import { z } from 'zod/mini';
import { Constants, type Enums } from '../database.types.ts';
import { processingStateSchema, type ProcessingState } from './processing.ts';

export const MAX_EPISODE_FILES = 10;
/** 3 GB as configured (3*1024^3 bytes), the `episodes` bucket's file_size_limit. */
export const MAX_EPISODE_FILE_BYTES = 3 * 1024 ** 3;
export const EPISODE_MIME_TYPE = 'video/mp4';
export const EPISODES_BUCKET = 'episodes';
export const RECENT_EPISODES_SHOWN = 3;

/** The SQL enum `public.clip_style`, through the generated types. */
export const CLIP_STYLES = Constants.public.Enums.clip_style;
export type ClipStyle = Enums<'clip_style'>;
const DAYS_BETWEEN_CLIPS_MIN = 1;
const DAYS_BETWEEN_CLIPS_MAX = 30;

/** hh:mm:ss, hours 0-23 with an optional leading zero. */
const TIMESTAMP_PATTERN = /^([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;
const timestampMessage = 'Must be in hh:mm:ss format';

const optionalTimestamp = z.optional(
  z.union([z.literal(''), z.string().check(z.regex(TIMESTAMP_PATTERN, timestampMessage))]),
);

/** hh:mm:ss (already matched by TIMESTAMP_PATTERN) as seconds; null for none. */
export function timestampSeconds(value: string | null | undefined): number | null {
  if (!value) return null;
  const [h, m, s] = value.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

/** Whole seconds as hh:mm:ss, as SQL's check_trim_against_length writes a length. */
export function formatDuration(seconds: number): string {
  const whole = Math.floor(seconds);
  return [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The refusals of trim times, word for word as submit_episode() raises them. */
export const trimMessages = {
  endBeforeStart: 'The end time must be after the start time.',
  startPastEnd: (start: string, durationSeconds: number) =>
    `The start time ${start} is past the end of the video (${formatDuration(durationSeconds)} long).`,
} as const;

type TrimTimes = { startTimestamp?: string; endTimestamp?: string };

/**
 * What is wrong with the trim times for a video of `durationSeconds` (null: length unknown), or
 * null. The end must follow the start; the start must leave at least one second of the video
 * (the worker's rule). An end past the video's end is allowed: processing stops at the end.
 */
export function trimProblem(
  { startTimestamp, endTimestamp }: TrimTimes,
  durationSeconds: number | null,
): { field: 'startTimestamp' | 'endTimestamp'; message: string } | null {
  const start = timestampSeconds(startTimestamp);
  const end = timestampSeconds(endTimestamp);
  if (start !== null && end !== null && end <= start) return { field: 'endTimestamp', message: trimMessages.endBeforeStart };
  if (start !== null && durationSeconds !== null && start + 1 > durationSeconds) {
    return { field: 'startTimestamp', message: trimMessages.startPastEnd(startTimestamp ?? '', durationSeconds) };
  }
  return null;
}

const optionFields = {
  startTimestamp: optionalTimestamp,
  endTimestamp: optionalTimestamp,
  addLogo: z._default(z.boolean(), true),
  addIntroOutro: z._default(z.boolean(), true),
  clipStyle: z._default(z.enum(CLIP_STYLES), 'DEFAULT'),
  daysBetweenClips: z._default(
    z.number().check(z.int(), z.gte(DAYS_BETWEEN_CLIPS_MIN), z.lte(DAYS_BETWEEN_CLIPS_MAX)),
    DAYS_BETWEEN_CLIPS_MIN,
  ),
};

/**
 * The options, with the trim times checked against a video of `durationSeconds` (null when the
 * length is unknown: only the end-after-start rule applies).
 */
export function episodeOptionsSchemaFor(durationSeconds: number | null) {
  return z.object(optionFields).check(trimCheck(durationSeconds));
}

function trimCheck(durationSeconds: number | null) {
  return z.superRefine((options: TrimTimes, ctx) => {
    const problem = trimProblem(options, durationSeconds);
    if (problem) ctx.issues.push({ code: 'custom', message: problem.message, path: [problem.field], input: options });
  });
}

export const episodeOptionsSchema = episodeOptionsSchemaFor(null);
export type EpisodeOptions = z.output<typeof episodeOptionsSchema>;

export const defaultEpisodeOptions: EpisodeOptions = {
  startTimestamp: '',
  endTimestamp: '',
  addLogo: true,
  addIntroOutro: true,
  clipStyle: 'DEFAULT',
  daysBetweenClips: 1,
};

/** The form's rule for days between clips: anything but a whole number 1-30 becomes 1. */
export function normalizeDaysBetweenClips(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  return Number.isInteger(n) && n >= DAYS_BETWEEN_CLIPS_MIN && n <= DAYS_BETWEEN_CLIPS_MAX ? n : DAYS_BETWEEN_CLIPS_MIN;
}

/** The most guests an episode names, and the longest title and name (submit_episode holds the same). */
export const MAX_EPISODE_GUESTS = 10;
export const MAX_EPISODE_TITLE_LENGTH = 200;
export const MAX_GUEST_NAME_LENGTH = 100;

/** What the Submit dialog adds to the spec's options: the episode's title and its guests (both optional). */
const episodeNaming = {
  title: z.optional(z.string().check(z.maxLength(MAX_EPISODE_TITLE_LENGTH, `The title can be at most ${MAX_EPISODE_TITLE_LENGTH} characters.`))),
  guests: z.optional(
    z.array(z.string().check(z.maxLength(MAX_GUEST_NAME_LENGTH, `A guest's name can be at most ${MAX_GUEST_NAME_LENGTH} characters.`))).check(
      z.maxLength(MAX_EPISODE_GUESTS, `At most ${MAX_EPISODE_GUESTS} guests.`),
    ),
  ),
};

/** The guests' names as the Submit dialog takes them: separated by commas. */
export const guestNames = (text: string) => text.split(',').map((name) => name.trim()).filter(Boolean);

/** The Submit dialog's form: the options, and the title and guests as typed (both may stay empty). */
export function submitFormSchemaFor(durationSeconds: number | null) {
  return z
    .object({
      ...optionFields,
      title: z.string().check(z.maxLength(MAX_EPISODE_TITLE_LENGTH, `The title can be at most ${MAX_EPISODE_TITLE_LENGTH} characters.`)),
      guests: z.string().check(
        z.refine((text) => guestNames(text).length <= MAX_EPISODE_GUESTS, `At most ${MAX_EPISODE_GUESTS} guests.`),
        z.refine((text) => guestNames(text).every((name) => name.length <= MAX_GUEST_NAME_LENGTH), `A guest's name can be at most ${MAX_GUEST_NAME_LENGTH} characters.`),
      ),
    })
    .check(trimCheck(durationSeconds));
}
export type SubmitForm = z.output<ReturnType<typeof submitFormSchemaFor>>;

/** What a submission sends: the options, and the title and guests when given. */
export type EpisodeSubmission = EpisodeOptions & { title?: string; guests?: string[] };

/** The submission of the dialog's values: an empty title or guest list is left out. */
export function submissionOf({ title, guests, ...options }: SubmitForm): EpisodeSubmission {
  const names = guestNames(guests);
  return { ...options, ...(title.trim() ? { title: title.trim() } : {}), ...(names.length ? { guests: names } : {}) };
}

/** POST /api/episodes/submit-direct-storage {uploadUrls, episodeData}. */
export const submitEpisodePayloadSchema = z.object({
  uploadUrls: z.array(z.string().check(z.minLength(1), z.maxLength(1024))).check(
    z.minLength(1, 'Please upload at least one video file before submitting.'),
    z.maxLength(MAX_EPISODE_FILES, `At most ${MAX_EPISODE_FILES} files can be submitted at once.`),
  ),
  episodeData: z._default(z.extend(episodeOptionsSchema, episodeNaming), () => ({ ...defaultEpisodeOptions })),
});

export type BlockReason = 'google_drive_required' | 'google_drive_invalid' | 'hosting_setup' | 'monthly_limit';

/** GET /api/episodes/stats (episode_stats() plus the dashboard's setup facts). */
export interface EpisodeStats {
  thisMonth: number;
  total: number;
  currentCount: number;
  /** This month's allowance: the plan's episodes plus the extras bought for this month (null: unlimited). */
  limit: number | null;
  /** Extra episodes bought for this month (the largest plan's 'one more episode'); in `limit` already. */
  extraEpisodes?: number;
  subscriptionTier: string;
  canSubmit: boolean;
  blockReason: BlockReason | null;
  hostingSetup: boolean;
  onboardingCompleted: boolean;
  socialConnected: boolean;
  /** When podcast hosting setup began; null once hosting is ready (or before onboarding). */
  hostingSetupStartedAt: string | null;
}

/** GET /api/episodes. */
export interface Episode {
  id: string;
  title: string;
  submittedAt: string | null;
  /** The built-in worker's latest processing of it; null when the webhook took it. */
  processing: ProcessingState | null;
}

const blockReasons = ['google_drive_required', 'google_drive_invalid', 'hosting_setup', 'monthly_limit'] as const satisfies readonly BlockReason[];

/** GET /api/episodes/stats as the SPA parses it. */
export const episodeStatsSchema: z.ZodMiniType<EpisodeStats> = z.object({
  thisMonth: z.number(),
  total: z.number(),
  currentCount: z.number(),
  limit: z.nullable(z.number()),
  extraEpisodes: z.optional(z.number()),
  subscriptionTier: z.string(),
  canSubmit: z.boolean(),
  blockReason: z.nullable(z.enum(blockReasons)),
  hostingSetup: z.boolean(),
  hostingSetupStartedAt: z.nullable(z.string()),
  onboardingCompleted: z.boolean(),
  socialConnected: z.boolean(),
});

/** GET /api/episodes as the SPA parses it. */
export const episodeListSchema: z.ZodMiniType<Episode[]> = z.array(
  z.object({
    id: z.string(),
    title: z.string(),
    submittedAt: z.nullable(z.string()),
    processing: z.nullable(processingStateSchema),
  }),
);

/** An object path in the caller's folder of the `episodes` bucket, always ending in .mp4. */
export function episodeObjectPath(userId: string, uploadId: string, fileName: string): string {
  const base = fileName.replace(/\.mp4$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 120) || 'episode';
  return `${userId}/${uploadId}/${base}.mp4`;
}

/** POST /api/objects/upload {fileName?, size?}: an episode upload opened (counted against the quota until it lands). */
export const openedUploadSchema = z.object({
  /** A signed URL for one PUT of the file (the spec's client); resumable uploads go to `path` with TUS. */
  uploadURL: z.string(),
  path: z.string(),
  expiresAt: z.string(),
});

/** POST /api/episodes/:id/retry: the episode queued again. */
export const retryResultSchema = z.object({
  success: z.literal(true),
  episode: z.object({ id: z.string(), title: z.string(), submittedAt: z.string(), retriedAt: z.string(), submissionLogId: z.string() }),
});

/** The public bucket of the shows' feeds: each delivered episode's sound and transcript, and the feeds. */
export const PODCAST_FEEDS_BUCKET = 'podcast-feeds';

/** Where a delivered episode's podcast files go in PODCAST_FEEDS_BUCKET (the episode id is its GUID). */
export const podcastEpisodeObjectPath = (episodeId: string, processingId: string, extension: 'm4a' | 'vtt') =>
  `episodes/${episodeId}/${processingId}.${extension}`;
