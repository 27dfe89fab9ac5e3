// What every speech-recognition engine offers the pipeline: whether it knows a language, and the
// words of a part of the episode (the shape is the domain's Transcript). Engines live beside this
// file; which one runs is configuration (engine.ts).
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';

export interface TranscribeRequest {
  /** The episode's video (opened as MP4, as every worker input is). */
  source: string;
  /** The part to transcribe, in seconds of `source`: the transcript's times start at `start`. */
  start: number;
  end: number;
  /** The podcast's language from the profile (ISO 639-1, e.g. `en`). */
  language: string;
  /**
   * Names and terms the speech may hold (the podcast's title, host, guests and keywords): an
   * engine that takes a vocabulary hears them better (Whisper's prompt); pocketsphinx cannot.
   */
  vocabulary?: readonly string[];
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
