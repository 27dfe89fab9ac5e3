// The writing stage of a submission (after the transcript and the clips' moments are known):
// the configured engine writes the episode's texts; when it cannot (a timeout, a refusal or an
// answer that fails its schema, each tried once more), the offline engine writes them and the
// reason is recorded for the episode page (EpisodeContent.problems, stage `writing`). What the
// writing spent (requests, tokens, their cost at the configured prices) is recorded either way.
import type { WritingSettings } from '../config.ts';
import type { EpisodeWriting } from '../../supabase/functions/_shared/domain-server/episode-writing.ts';
import { writingEngine } from './engine.ts';
import { extractiveEngine } from './extractive.ts';
import { noUsage, WritingFailure, type WritingEngine, type WritingInput, type WritingUsage } from './writing.ts';

/** What one writing of an episode spent, as private.record_writing_usage records it. */
export interface WritingSpend extends WritingUsage {
  engine: string;
  costUsd: number;
  fellBack: boolean;
}

export interface WritingOutcome {
  writing: EpisodeWriting;
  spend: WritingSpend;
  /** Why the offline engine wrote instead of the configured one (for the subscriber), or null. */
  problem: string | null;
}

/** US dollars for the tokens at the prices per million. */
export const costOf = (usage: WritingUsage, price: WritingSettings['pricePerMillion']) =>
  (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;

export const fallbackReason = (cause: string) =>
  `${cause.replace(/[.\s]+$/, '')}: the titles, show notes, blog post and clip texts were written offline from the episode's own sentences instead.`;

/** The episode written; `usage` may already count what the engine spent on it (rating the clips' moments). */
export async function writeEpisode(
  settings: WritingSettings,
  input: WritingInput,
  signal: AbortSignal,
  engine: WritingEngine = writingEngine(settings),
  usage: WritingUsage = noUsage(),
): Promise<WritingOutcome> {
  const spend = (fellBack: boolean): WritingSpend => ({ engine: engine.name, ...usage, costUsd: costOf(usage, settings.pricePerMillion), fellBack });
  try {
    const writing = await engine.write(input, usage, signal);
    return { writing, spend: spend(false), problem: null };
  } catch (error) {
    // Like every content stage, writing never fails the submission: only an aborted job stops it.
    if (signal.aborted || engine === extractiveEngine) throw error;
    const cause = error instanceof WritingFailure ? error.message : `The writing engine failed (${(error as Error).message.split('\n')[0].slice(0, 200)})`;
    const writing = await extractiveEngine.write(input, noUsage(), signal);
    return { writing, spend: spend(true), problem: fallbackReason(cause) };
  }
}
