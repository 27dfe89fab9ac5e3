// Caption and transcript files from a transcript: SRT and WebVTT cues of a few words (never
// across a sentence), and the plain text. Times are relative to the file they caption: a clip's
// words are those inside its moment, shifted so the moment starts where the clip shows it (after
// the clip intro). Pure formatting; the worker writes and uploads the results.
import type { Transcript, TranscriptWord } from '../../supabase/functions/_shared/domain/transcript.ts';

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** A cue holds at most this many characters (one readable subtitle line) ... */
export const CUE_MAX_CHARS = 42;
/** ... and lasts at most this long (seconds). */
export const CUE_MAX_SECONDS = 5;

/** Cues of consecutive words; a new cue starts with each sentence, or when one would grow too long. */
export function captionCues(transcript: Pick<Transcript, 'words' | 'sentences'>): Cue[] {
  const cues: Cue[] = [];
  for (const sentence of transcript.sentences) {
    let current: TranscriptWord[] = [];
    const flush = () => {
      if (current.length === 0) return;
      cues.push({ start: current[0].start, end: current[current.length - 1].end, text: current.map((w) => w.text).join(' ') });
      current = [];
    };
    for (const word of transcript.words.slice(sentence.firstWord, sentence.endWord)) {
      const text = [...current.map((w) => w.text), word.text].join(' ');
      if (current.length > 0 && (text.length > CUE_MAX_CHARS || word.end - current[0].start > CUE_MAX_SECONDS)) flush();
      current.push(word);
    }
    flush();
  }
  return cues;
}

/**
 * The part of a transcript inside [from, to) of its time line, moved to start at `at`: the words
 * that start in it (an end past `to` is cut there), and the sentences cut to those words.
 */
export function transcriptSlice(transcript: Pick<Transcript, 'words' | 'sentences'>, from: number, to: number, at = 0): Pick<Transcript, 'words' | 'sentences'> {
  const shift = (t: number) => Math.max(0, Math.min(t, to) - from) + at;
  const first = transcript.words.findIndex((w) => w.start >= from);
  if (first < 0) return { words: [], sentences: [] };
  let end = first;
  while (end < transcript.words.length && transcript.words[end].start < to) end += 1;
  const words = transcript.words.slice(first, end).map((w) => ({ ...w, start: shift(w.start), end: shift(w.end) }));
  const sentences = transcript.sentences
    .filter((s) => s.endWord > first && s.firstWord < end)
    .map((s) => {
      const firstWord = Math.max(s.firstWord, first) - first;
      const endWord = Math.min(s.endWord, end) - first;
      const whole = s.firstWord >= first && s.endWord <= end;
      const text = whole ? s.text : words.slice(firstWord, endWord).map((w) => w.text).join(' ');
      return { text, start: words[firstWord].start, end: words[endWord - 1].end, firstWord, endWord };
    });
  return { words, sentences };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** hh:mm:ss,mmm (SRT) or hh:mm:ss.mmm (WebVTT). */
export function cueTime(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** hh:mm:ss, for chapters and quotes. */
export function clockTime(seconds: number): string {
  return cueTime(seconds, '.').slice(0, 8);
}

// A cue must end after it starts (players drop zero-length cues): at least a tenth of a second.
const cueEnd = (cue: Cue) => Math.max(cue.end, cue.start + 0.1);
// A blank line ends a cue in both formats, and WebVTT reads "-->" in text as timing.
const cueText = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/-->/g, '->');

export function toSrt(cues: readonly Cue[]): string {
  return cues.map((cue, i) => `${i + 1}\n${cueTime(cue.start, ',')} --> ${cueTime(cueEnd(cue), ',')}\n${cueText(cue.text)}\n`).join('\n');
}

export function toWebVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((cue) => `${cueTime(cue.start, '.')} --> ${cueTime(cueEnd(cue), '.')}\n${cueText(cue.text)}\n`).join('\n')}`;
}

/** The transcript as text: one paragraph per sentence, each with its hh:mm:ss. */
export function plainTranscript(transcript: Pick<Transcript, 'sentences'>, at = 0): string {
  return transcript.sentences.map((s) => `[${clockTime(s.start + at)}] ${s.text}`).join('\n\n') + (transcript.sentences.length ? '\n' : '');
}
