// One interface for every speech-recognition engine; which one runs is configuration
// (TRANSCRIPTION_ENGINE: `pocketsphinx`, offline, the default; `openai`, hosted Whisper).
import type { TranscriptionSettings } from '../config.ts';
import { openaiEngine } from './openai.ts';
import { pocketsphinxEngine } from './pocketsphinx.ts';
import type { Transcript } from './transcript.ts';

export interface TranscribeRequest {
  /** The episode's video (opened as MP4, as every worker input is). */
  source: string;
  /** The part to transcribe, in seconds of `source`: the transcript's times start at `start`. */
  start: number;
  end: number;
  /** The podcast's language from the profile (ISO 639-1, e.g. `en`). */
  language: string;
  /** Scratch space for the audio the engine reads. */
  workDir: string;
  signal?: AbortSignal;
}

export interface TranscriptionEngine {
  name: string;
  /** Whether the engine can transcribe speech in `language` (ISO 639-1). */
  recognises(language: string): boolean;
  transcribe(request: TranscribeRequest): Promise<Transcript>;
}

export function transcriptionEngine(settings: TranscriptionSettings): TranscriptionEngine {
  switch (settings.engine) {
    case 'openai':
      return openaiEngine(settings.openai);
    case 'pocketsphinx':
      return pocketsphinxEngine(settings.pocketsphinx);
  }
}
