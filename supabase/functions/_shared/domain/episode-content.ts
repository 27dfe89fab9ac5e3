// What the built-in worker makes from an episode's words, as stored on its processing row
// (`episode_processing.content`) and answered by GET /api/episodes/:id/content. Times are seconds
// of the delivered episode file (after its intro); `time` is the same as hh:mm:ss.
import { z } from 'zod/mini';
import { PROCESSING_STATUSES, type ProcessingStatus } from './processing.ts';

export interface Chapter {
  start: number;
  time: string;
  title: string;
  /** The chapter's sentences: indexes into the transcript's sentences. */
  firstSentence: number;
  endSentence: number;
}

export interface Quote {
  start: number;
  time: string;
  text: string;
}

export interface ShowNotes {
  summary: string;
  chapters: Chapter[];
  quotes: Quote[];
  keywords: string[];
}

export interface BlogPost {
  title: string;
  /** Markdown (domain/markdown.ts renders it for the episode page and WordPress). */
  markdown: string;
  /** The post on the subscriber's WordPress once it is there (a draft, or published). */
  wordpress: { postId: number; link: string | null; status: 'draft' | 'publish' } | null;
}

/**
 * A part of the content engine that can be missing on its own; `writing`: the configured writing
 * engine could not write, and the offline one wrote the texts instead (the reason says why).
 */
export const CONTENT_STAGES = ['transcript', 'captions', 'show notes', 'blog post', 'wordpress', 'writing'] as const;
export type ContentStage = (typeof CONTENT_STAGES)[number];

export interface EpisodeContent {
  transcript: {
    /** The engine that made it, e.g. `pocketsphinx` or `openai whisper-1`. */
    engine: string;
    /** BCP 47, e.g. `en-US`. */
    language: string;
    durationSeconds: number;
    wordCount: number;
    /** Plain text: one line per sentence, each with its hh:mm:ss. */
    text: string;
  } | null;
  showNotes: ShowNotes | null;
  /** Titles the writing engine suggests, best first (the first is the episode's until the subscriber gives one). */
  titleSuggestions?: string[];
  blogPost: BlogPost | null;
  /** What was not made, and why, in words for the subscriber. */
  problems: { stage: ContentStage; reason: string }[];
}

/** GET /api/episodes/:id/content: the episode's latest processing, with its content once made. */
export interface EpisodeContentAnswer {
  episodeId: string;
  status: ProcessingStatus | null;
  driveFolderUrl: string | null;
  content: EpisodeContent | null;
}

const timed = { start: z.number(), time: z.string() };

export const quoteSchema: z.ZodMiniType<Quote> = z.object({ ...timed, text: z.string() });

export const showNotesSchema: z.ZodMiniType<ShowNotes> = z.object({
  summary: z.string(),
  chapters: z.array(z.object({ ...timed, title: z.string(), firstSentence: z.number(), endSentence: z.number() })),
  quotes: z.array(quoteSchema),
  keywords: z.array(z.string()),
});

export const blogPostSchema: z.ZodMiniType<BlogPost> = z.object({
  title: z.string(),
  markdown: z.string(),
  wordpress: z.nullable(z.object({ postId: z.number(), link: z.nullable(z.string()), status: z.enum(['draft', 'publish']) })),
});

/** The content as the processing row keeps it (the worker writes it, the api and the SPA read it). */
export const episodeContentSchema: z.ZodMiniType<EpisodeContent> = z.object({
  transcript: z.nullable(
    z.object({
      engine: z.string(),
      language: z.string(),
      durationSeconds: z.number(),
      wordCount: z.number(),
      text: z.string(),
    }),
  ),
  showNotes: z.nullable(showNotesSchema),
  titleSuggestions: z.optional(z.array(z.string())),
  blogPost: z.nullable(blogPostSchema),
  problems: z.array(
    z.object({
      stage: z.enum(CONTENT_STAGES),
      reason: z.string(),
    }),
  ),
});

/** GET /api/episodes/:id/content as the SPA parses it. */
export const episodeContentAnswerSchema: z.ZodMiniType<EpisodeContentAnswer> = z.object({
  episodeId: z.string(),
  status: z.nullable(z.enum(PROCESSING_STATUSES)),
  driveFolderUrl: z.nullable(z.string()),
  content: z.nullable(episodeContentSchema),
});
