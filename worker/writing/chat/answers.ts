// The shapes the chat engine asks for (structured outputs: the SDK's zodResponseFormat sends each
// as a strict JSON schema) and checks every answer against. Only what strict schemas support
// everywhere: required fields, strings, integers, arrays. Lengths, sentence numbers and quotes are
// checked after (faithful.ts), where a bad item is dropped or cut rather than the answer refused.
import { z } from 'zod';

/** One part of the transcript (the map step). */
export const pieceAnswer = z.object({
  summary: z.string(),
  chapters: z.array(z.object({ sentence: z.number().int(), title: z.string() })),
  quotes: z.array(z.object({ sentence: z.number().int(), text: z.string() })),
  keywords: z.array(z.string()),
});
export type PieceAnswer = z.infer<typeof pieceAnswer>;

/** The whole episode from its parts' notes (the reduce step). */
export const episodeAnswer = z.object({
  titles: z.array(z.string()),
  summary: z.string(),
  chapters: z.array(z.object({ sentence: z.number().int(), title: z.string() })),
  keywords: z.array(z.string()),
  hashtags: z.array(z.string()),
  article: z.object({
    title: z.string(),
    introduction: z.string(),
    sections: z.array(z.object({ heading: z.string(), paragraphs: z.array(z.string()) })),
    quotes: z.array(z.string()),
  }),
});
export type EpisodeAnswer = z.infer<typeof episodeAnswer>;

/** Each clip's title and posts. */
export const clipsAnswer = z.object({
  clips: z.array(
    z.object({
      clip: z.number().int(),
      title: z.string(),
      hook: z.string(),
      youtubeTitle: z.string(),
      youtubeDescription: z.string(),
      x: z.string(),
      linkedin: z.string(),
    }),
  ),
});
export type ClipsAnswer = z.infer<typeof clipsAnswer>;

/** The names the requests give their schemas (the sandbox answers by them). */
export const ANSWER_NAMES = { piece: 'episode_part_notes', episode: 'episode_texts', clips: 'clip_texts', moments: 'moment_ratings' } as const;

/** The clips' candidate moments rated (clip choice: worker/media/clip-selection.ts RateMoments). */
export const momentsAnswer = z.object({
  ratings: z.array(z.object({ moment: z.number().int(), score: z.number().int(), reason: z.string() })),
});
export type MomentsAnswer = z.infer<typeof momentsAnswer>;
