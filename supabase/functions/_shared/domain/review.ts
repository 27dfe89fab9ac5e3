// Review before posting (issue 41): the subscriber's Post Settings (how long posting waits for
// their review, the hour clips go out), why an episode waits for approval, and the shapes of the
// review screen's edits. Shared by the `api` function and the SPA; the rules themselves are SQL
// (supabase/migrations/20261128110400_review_before_posting.sql), which takes the same values
// (tests/db/domain-constants.test.ts holds them together).
import { z } from 'zod/mini';
import { clipPostsSchema, type ClipPosts } from './episode-clips.ts';
import { transcriptSchema, type Transcript } from './transcript.ts';

/** How long after delivery posting may start without the subscriber's approval. */
export const REVIEW_WINDOWS = ['none', '12h', '24h', 'approval'] as const;
export type ReviewWindow = (typeof REVIEW_WINDOWS)[number];

export const reviewWindowLabels: Record<ReviewWindow, string> = {
  none: 'Post right after delivery',
  '12h': '12 hours after delivery',
  '24h': '24 hours after delivery',
  approval: 'Only when I approve',
};

export const DEFAULT_REVIEW_WINDOW: ReviewWindow = '24h';
/** The hour of the day (0-23, in the podcast's time zone) clips are posted at. */
export const DEFAULT_POSTING_HOUR = 10;

/** 'HH:00' for a posting hour. */
export const postingHourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Why an episode waits for the subscriber's approval whatever their window. */
export const REVIEW_HOLDS = ['approval', 'title', 'low_confidence'] as const;
export type ReviewHold = (typeof REVIEW_HOLDS)[number];

/** The reason in plain words, for the episode page and the e-mail that says an episode is ready. */
export const reviewHoldReasons: Record<ReviewHold, string> = {
  approval: 'You chose to approve each episode before anything is posted.',
  title: 'The title is only a suggestion: keep it or give your own, then approve.',
  low_confidence:
    'The speech recognition was unsure of many words, so the captions and texts may have mistakes: check the transcript, then approve.',
};

/**
 * Below this confidence (0..1) a word is marked unsure in the transcript editor, and a transcript
 * whose mean is below it holds posting until approval (private.low_transcript_confidence()).
 */
export const LOW_CONFIDENCE = 0.7;

/** A clip runs over whole sentences, from this many seconds to that many. */
export const CLIP_MOMENT_SECONDS = { min: 5, max: 90 } as const;

/** The episode's review on its page. */
export interface EpisodeReview {
  hold: ReviewHold | null;
  /** When posting starts unless something holds it (null while held, or with no window). */
  dueAt: string | null;
  /** When posting started (approved or the window passed); null before. */
  releasedAt: string | null;
  /** The transcript's version (each save adds one) and its mean word confidence (0..1), null without one. */
  transcriptVersion: number | null;
  transcriptConfidence: number | null;
  /** The podcast's time zone ('UTC+01:00') and posting hour: the calendar's times are in it. */
  timeZone: string | null;
  postingHour: number;
  postAutomatically: boolean;
  /** Edits the worker is still carrying out, and why the latest could not be. */
  edits: PendingEdits;
}

export interface PendingEdits {
  renderingClipIds: string[];
  writingTexts: boolean;
  failure: string | null;
}

export const episodeReviewSchema: z.ZodMiniType<EpisodeReview> = z.object({
  hold: z.nullable(z.enum(REVIEW_HOLDS)),
  dueAt: z.nullable(z.string()),
  releasedAt: z.nullable(z.string()),
  transcriptVersion: z.nullable(z.int()),
  transcriptConfidence: z.nullable(z.number()),
  timeZone: z.nullable(z.string()),
  postingHour: z.int(),
  postAutomatically: z.boolean(),
  edits: z.object({ renderingClipIds: z.array(z.string()), writingTexts: z.boolean(), failure: z.nullable(z.string()) }),
});

/** Whether the worker still carries out an edit of the episode (the page asks again until it is done). */
export const hasPendingEdits = (review: EpisodeReview | undefined) =>
  Boolean(review && (review.edits.renderingClipIds.length > 0 || review.edits.writingTexts));

// ------------------------------------------------------------------ the review screen's requests

export const CLIP_REVIEW_ACTIONS = ['approve', 'drop', 'restore'] as const;
export type ClipReviewAction = (typeof CLIP_REVIEW_ACTIONS)[number];

/** POST /api/clips/:id/review. */
export const clipReviewSchema = z.strictObject({ action: z.enum(CLIP_REVIEW_ACTIONS) });

/** PATCH /api/clips/:id: its title and every platform's text. */
export interface ClipTextsEdit {
  title: string;
  posts: ClipPosts;
}
export const clipTextsSchema: z.ZodMiniType<ClipTextsEdit> = z.strictObject({ title: z.string(), posts: clipPostsSchema });

/** PUT /api/clips/:id/moment: the sentences [firstSentence, endSentence) of the transcript. */
export const clipMomentSchema = z.strictObject({ firstSentence: z.int(), endSentence: z.int() });

/** POST /api/episodes/:id/posts: every post not out yet, moved `days` later or canceled. */
export const episodePostsChangeSchema = z.union([
  z.strictObject({ action: z.literal('postpone'), days: z.int().check(z.gte(1), z.lte(365)) }),
  z.strictObject({ action: z.literal('cancel') }),
]);
export type EpisodePostsChange = z.infer<typeof episodePostsChangeSchema>;

/** PATCH /api/episodes/:id/title. */
export const episodeTitleSchema = z.strictObject({ title: z.string() });

/** PATCH /api/episodes/:id/blog-post. */
export const blogPostEditSchema = z.strictObject({ title: z.string(), markdown: z.string() });

/** PATCH /api/episodes/:id/show-notes: the summary, each chapter's title in order, the keywords. */
export const showNotesEditSchema = z.strictObject({
  summary: z.string(),
  chapterTitles: z.array(z.string()),
  keywords: z.array(z.string()),
});

/** A corrected word: its place in the transcript's words and its new text (its times stay). */
export interface WordCorrection {
  index: number;
  text: string;
}

/** PUT /api/episodes/:id/transcript: the corrections, on the version they were made on. */
export const transcriptSaveSchema = z.strictObject({
  version: z.int(),
  words: z.array(z.strictObject({ index: z.int().check(z.gte(0)), text: z.string() })).check(z.minLength(1)),
});

/** The answer of a save: the new version and the clips rendered again for it. */
export const transcriptSavedSchema = z.object({ version: z.int(), clipIds: z.array(z.string()) });

/** GET /api/episodes/:id/transcript. */
export type EpisodeTranscript = Transcript & { version: number; confidence: number | null; editedAt: string | null };

export const episodeTranscriptSchema: z.ZodMiniType<EpisodeTranscript> = z.intersection(
  transcriptSchema,
  z.object({ version: z.int(), confidence: z.nullable(z.number()), editedAt: z.nullable(z.string()) }),
);

// ------------------------------------------------------------------ times in the podcast's zone

/** Minutes east of UTC of a profile time zone ('UTC+05:30' is 330), or null when it names none. */
export function zoneOffsetMinutes(zone: string | null): number | null {
  const match = zone ? /^UTC([+-])(\d{2}):(\d{2})$/.exec(zone) : null;
  if (!match) return null;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/**
 * Made on first use, not at import: this module is in every screen's first load (the episode
 * query's), and constructing a date formatter was the longest function of that load (about 15 ms,
 * 60 ms at Lighthouse's 4x; issue 45).
 */
let zoneFormat: Intl.DateTimeFormat | undefined;

/**
 * `iso` as the podcast's clock reads it, with its zone ('Dec 1, 2026, 10:00 AM (UTC+01:00)'); in
 * UTC when the profile names no zone, as SQL's next_posting_time counts the posting hour then.
 */
export function formatInZone(iso: string, zone: string | null): string {
  const offset = zoneOffsetMinutes(zone);
  const shifted = new Date(new Date(iso).getTime() + (offset ?? 0) * 60_000);
  zoneFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
  return `${zoneFormat.format(shifted)} (${offset === null ? 'UTC' : zone})`;
}
