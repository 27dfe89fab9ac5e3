// One interface for every writing engine; which one runs is configuration (WRITING_ENGINE:
// `extractive`, offline, the default; `openai`, an OpenAI-compatible chat-completions API).
import type { WritingSettings } from '../config.ts';
import type { RateMoments } from '../media/clip-selection.ts';
import { chatEngine } from './chat/engine.ts';
import { chatMomentRater } from './chat/moments.ts';
import { extractiveEngine } from './extractive.ts';
import type { WritingEngine, WritingInput, WritingUsage } from './writing.ts';

export function writingEngine(settings: WritingSettings): WritingEngine {
  switch (settings.engine) {
    case 'openai':
      return chatEngine(settings);
    case 'extractive':
      return extractiveEngine;
  }
}

/**
 * The engine's rating of the clips' candidate moments, for clip choice (its spend counted in
 * `usage`, which the writing then adds to); none from the offline engine: the words and the
 * sound decide.
 */
export function momentRater(
  settings: WritingSettings,
  input: Pick<WritingInput, 'language' | 'podcast' | 'episode'>,
  usage: WritingUsage,
  signal: AbortSignal,
): RateMoments | undefined {
  return settings.engine === 'openai' ? chatMomentRater(settings, input, usage, signal) : undefined;
}
