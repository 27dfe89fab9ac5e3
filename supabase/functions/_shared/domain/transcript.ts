// An episode's words as every engine hands them on and the product keeps them: words with their
// times, grouped into sentences. Times are seconds from the start of the trimmed episode (before
// its intro). The worker's stages read only this shape, the processing plan carries it, and the
// subscriber's transcript editor shows it.
import { z } from 'zod/mini';

export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  /** 0..1 where the engine reports it. */
  confidence?: number;
}

export interface TranscriptSentence {
  text: string;
  start: number;
  end: number;
  /** Index of the sentence's first word in `Transcript.words`, and one past its last. */
  firstWord: number;
  endWord: number;
}

export interface Transcript {
  /** The engine that made it, e.g. 'pocketsphinx' (recorded in the outcome). */
  engine: string;
  /** BCP 47 language the engine recognised, e.g. 'en-US'. */
  language: string;
  durationSeconds: number;
  words: TranscriptWord[];
  sentences: TranscriptSentence[];
}

const seconds = z.number().check(z.gte(0));

export const transcriptSchema: z.ZodMiniType<Transcript> = z.object({
  engine: z.string(),
  language: z.string(),
  durationSeconds: seconds,
  words: z.array(z.object({ text: z.string(), start: seconds, end: seconds, confidence: z.optional(z.number().check(z.gte(0), z.lte(1))) })),
  sentences: z.array(
    z.object({
      text: z.string(),
      start: seconds,
      end: seconds,
      firstWord: z.int().check(z.gte(0)),
      endWord: z.int().check(z.gte(0)),
    }),
  ),
});
