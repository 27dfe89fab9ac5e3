// What the built-in worker makes from an episode's words, as stored on its processing row
// (`episode_processing.content`) and answered by GET /api/episodes/:id/content. Times are seconds
// of the delivered episode file (after its intro); `time` is the same as hh:mm:ss.

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

/** A part of the content engine that can be missing on its own. */
export type ContentStage = 'transcript' | 'captions' | 'show notes' | 'blog post' | 'wordpress';

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
  blogPost: {
    title: string;
    markdown: string;
    /** The post on the subscriber's WordPress, when connected and accepted. */
    wordpress: { postId: number; link: string | null; status: 'draft' | 'publish' } | null;
  } | null;
  /** What was not made, and why, in words for the subscriber. */
  problems: { stage: ContentStage; reason: string }[];
}

/** GET /api/episodes/:id/content: the episode's latest processing, with its content once made. */
export interface EpisodeContentAnswer {
  episodeId: string;
  status: 'queued' | 'processing' | 'delivered' | 'failed' | null;
  driveFolderUrl: string | null;
  content: EpisodeContent | null;
}
