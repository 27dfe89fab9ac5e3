// The episode page (GET /api/episodes/:id) and the posting calendar's changes
// (/api/scheduled-posts/:id): their shapes and rules, shared by the `api` function and the SPA.
// public.episode_page() and private.change_scheduled_post() in SQL hold the same rules.
import { z } from 'zod/mini';
import { PROVIDER_IDS, type ProviderId } from './connection-status.ts';
import { episodeClipSchema, type EpisodeClip } from './episode-clips.ts';
import { processingStateShape, type ProcessingState } from './processing.ts';
import { episodeReviewSchema, type EpisodeReview } from './review.ts';

/** `held`: waiting for the subscriber's review (issue 41); it gets its time when released. */
export const SCHEDULED_POST_STATUSES = ['held', 'scheduled', 'posted', 'failed', 'canceled'] as const;
export type ScheduledPostStatus = (typeof SCHEDULED_POST_STATUSES)[number];

/** A clip on one platform, the episode's blog post on WordPress (an article), or the full episode on YouTube. */
export const SCHEDULED_POST_KINDS = ['clip', 'article', 'episode'] as const;
export type ScheduledPostKind = (typeof SCHEDULED_POST_KINDS)[number];

/** One post, as the calendar shows it. */
export interface ScheduledPost {
  id: string;
  provider: ProviderId;
  kind: ScheduledPostKind;
  /** The clip (public.episode_clips), its title and its file's name; null for the blog post and the full episode. */
  clipId: string | null;
  clipTitle: string | null;
  clipName: string | null;
  scheduledFor: string;
  status: ScheduledPostStatus;
  postedAt: string | null;
  lastError: string | null;
  attempts: number;
  /** The platform's id of the post once out (a YouTube video id, a WordPress post id...). */
  externalId: string | null;
  /** Still waiting and held by no worker: the owner may postpone, cancel or post it now. */
  changeable: boolean;
}

/** What the worker delivers: the videos, and the files made from the words (issue 27). */
export const OUTPUT_KINDS = ['episode', 'clip', 'captions', 'transcript', 'show notes', 'blog post'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/** A file as the worker records it on the processing row (`episode_processing.outputs`). */
export interface StoredOutput {
  name: string;
  kind: OutputKind;
  /** Text outputs (captions, transcript, show notes, blog post) record the duration they cover, and no size (0). */
  durationSeconds: number;
  width: number;
  height: number;
  /** Captions: the video they are for (its output name). */
  captionsFor?: string;
  /** A clip's file: the clip (public.episode_clips). */
  clipId?: string;
  driveFileId?: string;
  /** Drive's webViewLink of the file. */
  driveUrl?: string;
}

export const storedOutputSchema: z.ZodMiniType<StoredOutput> = z.object({
  name: z.string(),
  kind: z.enum(OUTPUT_KINDS),
  durationSeconds: z.number(),
  width: z.number(),
  height: z.number(),
  captionsFor: z.optional(z.string()),
  clipId: z.optional(z.string()),
  driveFileId: z.optional(z.string()),
  driveUrl: z.optional(z.string()),
});

/** A finished file in the subscriber's Drive. */
export interface EpisodeOutput {
  name: string;
  kind: OutputKind;
  durationSeconds: number;
  width: number;
  height: number;
  driveFileId: string | null;
  /** The file in Drive (Drive's webViewLink), null until it is uploaded. */
  driveUrl: string | null;
  /** An address that shows the file in a frame, null until it is uploaded. */
  previewUrl: string | null;
}

export interface EpisodeProcessingDetail extends ProcessingState {
  review: EpisodeReview;
  startedAt: string | null;
  finishedAt: string | null;
  driveFolderUrl: string | null;
  outputs: EpisodeOutput[];
  clips: EpisodeClip[];
  posts: ScheduledPost[];
}

/** GET /api/episodes/:id. */
export interface EpisodeDetail {
  id: string;
  title: string;
  /** The subscriber gave or accepted the title; false while it is the worker's suggestion. */
  titleConfirmed: boolean;
  guests: string[];
  submittedAt: string | null;
  /** The latest processing (a resubmission is processed again); null for the webhook automation. */
  processing: EpisodeProcessingDetail | null;
}

export const scheduledPostSchema: z.ZodMiniType<ScheduledPost> = z.object({
  id: z.string(),
  provider: z.enum(PROVIDER_IDS),
  kind: z.enum(SCHEDULED_POST_KINDS),
  clipId: z.nullable(z.string()),
  clipTitle: z.nullable(z.string()),
  clipName: z.nullable(z.string()),
  scheduledFor: z.string(),
  status: z.enum(SCHEDULED_POST_STATUSES),
  postedAt: z.nullable(z.string()),
  lastError: z.nullable(z.string()),
  attempts: z.number(),
  externalId: z.nullable(z.string()),
  changeable: z.boolean(),
});

const processingDetailShape = {
  ...processingStateShape,
  review: episodeReviewSchema,
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  driveFolderUrl: z.nullable(z.string()),
  clips: z.array(episodeClipSchema),
  posts: z.array(scheduledPostSchema),
};

/** GET /api/episodes/:id as the SPA parses it. */
export const episodeDetailSchema: z.ZodMiniType<EpisodeDetail> = z.object({
  id: z.string(),
  title: z.string(),
  titleConfirmed: z.boolean(),
  guests: z.array(z.string()),
  submittedAt: z.nullable(z.string()),
  processing: z.nullable(
    z.object({
      ...processingDetailShape,
      outputs: z.array(
        z.object({
          name: z.string(),
          kind: z.enum(OUTPUT_KINDS),
          durationSeconds: z.number(),
          width: z.number(),
          height: z.number(),
          driveFileId: z.nullable(z.string()),
          driveUrl: z.nullable(z.string()),
          previewUrl: z.nullable(z.string()),
        }),
      ),
    }),
  ),
});

/** The episode as public.episode_page() answers it: the outputs as the worker stores them. */
export type StoredEpisodeDetail = Omit<EpisodeDetail, 'processing'> & {
  processing: (Omit<EpisodeProcessingDetail, 'outputs'> & { outputs: StoredOutput[] }) | null;
};

export const storedEpisodeDetailSchema: z.ZodMiniType<StoredEpisodeDetail> = z.object({
  id: z.string(),
  title: z.string(),
  titleConfirmed: z.boolean(),
  guests: z.array(z.string()),
  submittedAt: z.nullable(z.string()),
  processing: z.nullable(z.object({ ...processingDetailShape, outputs: z.array(storedOutputSchema) })),
});

/** What each change of a post answers: the post as it now is. */
export const postChangeResultSchema = z.object({ post: scheduledPostSchema });

const GOOGLE_DRIVE_FILE = /^https:\/\/drive\.google\.com\/file\/d\/([^/?#]+)/;

/**
 * Drive's link for a file: the one Drive gave (outputs made before it was recorded have only the
 * id, and those were made by Google Drive itself or the local sandbox; Google's shape is assumed).
 */
export function driveFileUrl(driveFileId: string, recorded: string | null | undefined): string {
  return recorded || `https://drive.google.com/file/d/${encodeURIComponent(driveFileId)}/view`;
}

/**
 * The framed preview: Google Drive's own player (`/file/d/<id>/preview`, which plays for a
 * browser signed in to the Google account that owns the file); any other Drive (the local
 * sandbox) serves a player page at the file's link itself.
 */
export function drivePreviewUrl(driveUrl: string): string {
  const google = GOOGLE_DRIVE_FILE.exec(driveUrl);
  return google ? `https://drive.google.com/file/d/${google[1]}/preview` : driveUrl;
}

/**
 * Where a post that is out can be seen, from the id its platform gave it; null where the id alone
 * does not say (a WordPress post lives on the subscriber's own site).
 */
export function postAddress(provider: ProviderId, externalId: string | null): string | null {
  if (!externalId) return null;
  const id = encodeURIComponent(externalId);
  switch (provider) {
    case 'youtube':
      return `https://www.youtube.com/watch?v=${id}`;
    case 'x':
      return `https://x.com/i/status/${id}`;
    case 'linkedin':
      return `https://www.linkedin.com/feed/update/${externalId}`;
    default:
      return null;
  }
}

/** How far ahead a post may be postponed (private.change_scheduled_post says the same). */
export const POSTPONE_MAX_DAYS = 365;

export const postponeMessages = {
  notInFuture: 'Choose a date and time in the future.',
  tooFar: 'Choose a date within a year from now.',
  invalid: 'Choose a valid date and time.',
} as const;

/** The reason a new date for a post is refused, or null when it may be chosen. */
export function postponeProblem(date: Date, now = new Date()): string | null {
  if (Number.isNaN(date.getTime())) return postponeMessages.invalid;
  if (date.getTime() <= now.getTime()) return postponeMessages.notInFuture;
  if (date.getTime() > now.getTime() + POSTPONE_MAX_DAYS * 86_400_000) return postponeMessages.tooFar;
  return null;
}

/** PATCH /api/scheduled-posts/:id {scheduledFor}: an ISO 8601 date-time with its offset. */
export const postponePostSchema = z.object({
  scheduledFor: z.iso.datetime({ offset: true, message: postponeMessages.invalid }),
});
export type PostponePostPayload = z.infer<typeof postponePostSchema>;

/** Whether the page should keep asking for news: until the processing is delivered or failed. */
/** A post is due and not yet out (Post now, or its time came): the worker posts it within a minute. */
export function isPostGoingOut(post: ScheduledPost, now = Date.now()): boolean {
  return post.status === 'scheduled' && new Date(post.scheduledFor).getTime() <= now;
}

export function isProcessingUnderway(detail: EpisodeDetail | undefined): boolean {
  const status = detail?.processing?.status;
  return status === 'queued' || status === 'processing';
}
