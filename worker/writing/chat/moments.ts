// The chat engine's rating of the clips' candidate moments (issue 42, item 4): clip choice
// (worker/media/clip-selection.ts) shortlists the best moments by its rules and asks a writing
// engine to rate them; this answers with one request per batch that fits the context, a score of
// 0..1 and a reason per moment, in their order. A failed or incomplete rating throws: the words
// and the sound then decide (chooseClips logs it), and the writing is not given up for it.
import type { WritingSettings } from '../../config.ts';
import type { MomentToRate, RateMoments } from '../../media/clip-selection.ts';
import { clockTime } from '../../content/caption-files.ts';
import type { WritingInput, WritingUsage } from '../writing.ts';
import { ANSWER_NAMES, momentsAnswer } from './answers.ts';
import { chatClient, type Ask } from './client.ts';
import { promptContext } from './context.ts';
import { promptBudget } from './engine.ts';
import { fill, loadPrompts } from './prompts.ts';
import { estimateTokens } from './transcript-pieces.ts';
import { line } from './faithful.ts';
import { inTurns } from '../../in-turns.ts';

/** A reason a podcaster reads beside the clip: one sentence. */
const REASON_LENGTH = 160;

export function chatMomentRater(
  settings: WritingSettings,
  input: Pick<WritingInput, 'language' | 'podcast' | 'episode'>,
  usage: WritingUsage,
  signal: AbortSignal,
  ask: Ask = chatClient(settings),
): RateMoments {
  return async (moments: readonly MomentToRate[]) => {
    const prompts = loadPrompts(settings.promptsDir);
    const context = promptContext(input);
    const system = fill(prompts.system, { language: context.language });
    const shown = moments.map((m, i) => ({ moment: i + 1, from: clockTime(m.start), to: clockTime(m.end), said: m.text }));
    const budget = promptBudget(settings.contextTokens) - estimateTokens(system) - estimateTokens(fill(prompts.moments, { ...context, moments: '' }));
    const batches: (typeof shown)[] = [];
    for (const moment of shown) {
      const last = batches[batches.length - 1];
      if (last && estimateTokens(JSON.stringify([...last, moment], null, 1)) <= budget) last.push(moment);
      else batches.push([moment]);
    }
    const rated = new Map<number, { score: number; reason: string }>();
    // The batches are asked side by side, as the writing's requests are: a long episode waits for one round.
    await inTurns(batches, settings.parallel, async (batch) => {
      const wanted = new Set(batch.map((m) => m.moment));
      const answer = await ask(
        {
          name: ANSWER_NAMES.moments,
          schema: momentsAnswer,
          system,
          user: fill(prompts.moments, { ...context, moments: JSON.stringify(batch, null, 1) }),
          check: (a) => (batch.every((m) => a.ratings.some((r) => r.moment === m.moment && r.reason.trim())) ? null : 'not every moment rated'),
        },
        usage,
        signal,
      );
      for (const rating of answer.ratings) {
        if (!wanted.has(rating.moment)) continue;
        rated.set(rating.moment, { score: Math.min(100, Math.max(0, rating.score)) / 100, reason: line(rating.reason, REASON_LENGTH).replace(/([^.!?…])$/, '$1.') });
      }
    });
    return shown.map((m) => rated.get(m.moment) ?? { score: 0, reason: '' });
  };
}
