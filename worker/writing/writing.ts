// What every writing engine offers the pipeline (docs/decisions.md "The writing engine"): from an
// episode's transcript, the profile's podcast details and the episode's title and guests, the
// titles it suggests, the show notes, the blog article and each clip's title and posts, in the
// podcast's language. Engines live beside this file; which one runs is configuration (engine.ts).
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { EpisodeWriting } from '../../supabase/functions/_shared/domain-server/episode-writing.ts';
import type { ProcessingJob } from '../../supabase/functions/_shared/domain-server/processing-job.ts';

/** A clip to write for: its moment in seconds of the trimmed episode and, chosen from the words, its sentences. */
export interface WritingClip {
  start: number;
  end: number;
  sentences?: { first: number; end: number };
}

export interface WritingInput {
  /** The podcast's language from the profile (ISO 639-1). */
  language: string;
  podcast: ProcessingJob['podcast'];
  episode: Pick<ProcessingJob, 'title' | 'titleConfirmed' | 'guests'>;
  transcript: Transcript;
  /** Where the transcript starts in the delivered episode file (its intro): the notes' times. */
  at: number;
  clips: WritingClip[];
}

/** What a run of an engine spent: requests and tokens (none for the offline engine). */
export interface WritingUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export interface WritingEngine {
  /** `extractive`, or `openai <model>`. */
  name: string;
  /** Writes the episode's texts; `usage` counts what it spends as it goes (a failure keeps what was spent). */
  write(input: WritingInput, usage: WritingUsage, signal: AbortSignal): Promise<EpisodeWriting>;
}

/** The configured engine could not write (after its one retry); the reason is for the subscriber. */
export class WritingFailure extends Error {}

export const noUsage = (): WritingUsage => ({ requests: 0, promptTokens: 0, completionTokens: 0 });

/** The episode's title the texts name: the subscriber's once given or accepted, else the engine's first suggestion. */
export const titleOf = (episode: WritingInput['episode'], suggestions: readonly string[]) =>
  episode.titleConfirmed ? episode.title : (suggestions[0] ?? episode.title);

/** The sentences a clip holds: those chosen for it, else those its moment spans (a clip chosen by sound). */
export function clipSentenceRange(transcript: Pick<Transcript, 'sentences'>, clip: WritingClip): { first: number; end: number } {
  if (clip.sentences) return clip.sentences;
  const inside = transcript.sentences.map((s, i) => ({ s, i })).filter(({ s }) => s.end > clip.start && s.start < clip.end);
  return inside.length ? { first: inside[0].i, end: inside[inside.length - 1].i + 1 } : { first: 0, end: 0 };
}
