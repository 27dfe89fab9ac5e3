// A transcript in pieces that each fit one request (the map step of a long episode), and the
// tokens a text will take. No tokenizer is shipped for every model an operator may choose, so the
// count is an estimate on the safe side: 4 ASCII characters a token, 2 for other alphabets
// (accents, Cyrillic, Arabic, Devanagari), and one token per CJK character.
import type { Transcript } from '../../../supabase/functions/_shared/domain/transcript.ts';
import { clockTime } from '../../content/caption-files.ts';

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    tokens += c < 0x80 ? 0.25 : c < 0x2e80 ? 0.5 : 1;
  }
  return Math.ceil(tokens);
}

/** A sentence as the prompts show it: `[number | hh:mm:ss] text` (times of the trimmed episode). */
export const sentenceLine = (index: number, sentence: { start: number; text: string }) => `[${index} | ${clockTime(sentence.start)}] ${sentence.text.replace(/\s+/g, ' ').trim()}`;

export interface TranscriptPiece {
  /** The first sentence's index and one past the last. */
  first: number;
  end: number;
  lines: string;
}

/**
 * Consecutive sentences grouped so each group's lines take at most `budget` tokens (a sentence
 * longer than the budget alone is a piece of its own). Pieces are about equal: the transcript is
 * split into as few as fit, then evenly, so the last is not a scrap.
 */
export function transcriptPieces(transcript: Pick<Transcript, 'sentences'>, budget: number): TranscriptPiece[] {
  const lines = transcript.sentences.map((s, i) => sentenceLine(i, s));
  const costs = lines.map((line) => estimateTokens(line) + 1);
  const total = costs.reduce((sum, c) => sum + c, 0);
  if (!lines.length) return [];
  const share = total / Math.max(1, Math.ceil(total / budget));
  const pieces: TranscriptPiece[] = [];
  let first = 0;
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const over = used + costs[i] > budget;
    if (i > first && (over || used >= share)) {
      pieces.push({ first, end: i, lines: lines.slice(first, i).join('\n') });
      first = i;
      used = 0;
    }
    used += costs[i];
  }
  pieces.push({ first, end: lines.length, lines: lines.slice(first).join('\n') });
  return pieces;
}
