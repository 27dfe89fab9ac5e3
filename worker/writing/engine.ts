// One interface for every writing engine; which one runs is configuration (WRITING_ENGINE:
// `extractive`, offline, the default; `openai`, an OpenAI-compatible chat-completions API).
import type { WritingSettings } from '../config.ts';
import { chatEngine } from './chat/engine.ts';
import { extractiveEngine } from './extractive.ts';
import type { WritingEngine } from './writing.ts';

export function writingEngine(settings: WritingSettings): WritingEngine {
  switch (settings.engine) {
    case 'openai':
      return chatEngine(settings);
    case 'extractive':
      return extractiveEngine;
  }
}
