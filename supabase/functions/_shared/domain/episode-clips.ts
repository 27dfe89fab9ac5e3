// A clip of an episode as a record (public.episode_clips): where its moment is, what it is
// called, what each platform's post says, and its file in the subscriber's Drive. The worker
// writes it (private.record_episode_clips), posts point at it (scheduled_posts.clip_id), and the
// episode page reads it. The platforms' limits live here once, for the worker that writes the
// texts and the SPA that counts them as a subscriber edits.
import { z } from 'zod/mini';

/** What each platform's post of a clip says. */
export interface ClipPosts {
  youtube: { title: string; description: string };
  x: { text: string };
  linkedin: { text: string };
  wordpress: { title: string; content: string };
}

/** Characters each text may hold (X counts its weighted length: xLength). */
export const PLATFORM_TEXT_LIMITS = {
  title: 70, youtubeTitle: 100, youtubeDescription: 5000, x: 280, linkedin: 3000, wordpressTitle: 200, wordpressContent: 20000,
} as const;

/** X's weighted length: most Latin, punctuation and symbols count 1, other characters (CJK, emoji) 2. */
export function xLength(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    n += c <= 4351 || (c >= 8192 && c <= 8205) || (c >= 8208 && c <= 8223) || (c >= 8242 && c <= 8247) ? 1 : 2;
  }
  return n;
}

export const clipPostsSchema: z.ZodMiniType<ClipPosts> = z.object({
  youtube: z.object({ title: z.string(), description: z.string() }),
  x: z.object({ text: z.string() }),
  linkedin: z.object({ text: z.string() }),
  wordpress: z.object({ title: z.string(), content: z.string() }),
});

export const CLIP_REVIEW_STATES = ['pending', 'approved', 'dropped'] as const;
export type ClipReviewState = (typeof CLIP_REVIEW_STATES)[number];

/** A clip as the episode page answers it. */
export interface EpisodeClip {
  id: string;
  /** 1 for the first clip of the episode. */
  position: number;
  /** The moment, in seconds of the trimmed episode. */
  startSeconds: number;
  endSeconds: number;
  /** Its sentences of the transcript [firstSentence, endSentence); null without a transcript. */
  firstSentence: number | null;
  endSentence: number | null;
  title: string;
  /** How good a moment Castloop found it (0..1), and why it chose it; null for clips from before. */
  score: number | null;
  reason: string | null;
  posts: ClipPosts;
  /** The file's name in Drive. */
  fileName: string;
  durationSeconds: number;
  width: number;
  height: number;
  driveFileId: string | null;
  driveUrl: string | null;
  /** 1 for the first render; each render after an edit adds one. */
  renderVersion: number;
  /** `pending` until the subscriber approves or drops it (a dropped clip is never posted). */
  reviewState: ClipReviewState;
}

export const episodeClipSchema: z.ZodMiniType<EpisodeClip> = z.object({
  id: z.string(),
  position: z.int(),
  startSeconds: z.number(),
  endSeconds: z.number(),
  firstSentence: z.nullable(z.int()),
  endSentence: z.nullable(z.int()),
  title: z.string(),
  score: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  reason: z.nullable(z.string()),
  posts: clipPostsSchema,
  fileName: z.string(),
  durationSeconds: z.number(),
  width: z.int(),
  height: z.int(),
  driveFileId: z.nullable(z.string()),
  driveUrl: z.nullable(z.string()),
  renderVersion: z.int(),
  reviewState: z.enum(CLIP_REVIEW_STATES),
});

/** What every change to a clip answers (PATCH /api/clips/:id and its kin): the clip as it is now. */
export const clipAnswerSchema = z.object({ clip: episodeClipSchema });
