// What every speech-recognition engine hands the rest of the pipeline: words with their times,
// grouped into sentences. Times are seconds from the start of the audio the engine was given
// (the trimmed episode). Engines live beside this file; the stages that use words (captions,
// caption files, show notes, the blog post, clip selection) read only this shape.

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
