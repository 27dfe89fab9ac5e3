// One interface for every speech-recognition engine; which one runs is configuration
// (TRANSCRIPTION_ENGINE: `pocketsphinx`, offline, the default; `openai`, hosted Whisper).
import type { TranscriptionSettings } from '../config.ts';
import { openaiEngine } from './openai.ts';
import { pocketsphinxEngine } from './pocketsphinx.ts';
import type { TranscriptionEngine } from './transcript.ts';

export function transcriptionEngine(settings: TranscriptionSettings): TranscriptionEngine {
  switch (settings.engine) {
    case 'openai':
      return openaiEngine(settings.openai);
    case 'pocketsphinx':
      return pocketsphinxEngine(settings.pocketsphinx);
  }
}
