// Sentences for engines that give words without punctuation (pocketsphinx): a sentence ends where
// the speaker pauses, or when it has grown too long to read as one. docs/decisions.md has the rule.
import type { TranscriptSentence, TranscriptWord } from '../../supabase/functions/_shared/domain/transcript.ts';

/** A silence this long (seconds, end of a word to the start of the next) ends a sentence. */
export const SENTENCE_PAUSE_SECONDS = 0.5;
/** A sentence that reaches this many words ends at its longest pause past the first third. */
export const SENTENCE_MAX_WORDS = 30;

/** "word word word" as a sentence: first letter capitalised, a full stop at the end. */
export function sentenceText(words: readonly TranscriptWord[]): string {
  const text = words.map((w) => w.text).join(' ');
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : '';
}

function sentence(words: readonly TranscriptWord[], firstWord: number, endWord: number): TranscriptSentence {
  const own = words.slice(firstWord, endWord);
  return { text: sentenceText(own), start: own[0].start, end: own[own.length - 1].end, firstWord, endWord };
}

/** Splits a run of words into sentences at pauses of SENTENCE_PAUSE_SECONDS, none over SENTENCE_MAX_WORDS. */
export function sentencesFromPauses(words: readonly TranscriptWord[]): TranscriptSentence[] {
  const sentences: TranscriptSentence[] = [];
  let first = 0;
  const close = (end: number) => {
    sentences.push(sentence(words, first, end));
    first = end;
  };
  for (let i = 1; i <= words.length; i += 1) {
    if (i === words.length) {
      if (i > first) close(i);
      break;
    }
    if (words[i].start - words[i - 1].end >= SENTENCE_PAUSE_SECONDS) close(i);
    else if (i - first >= SENTENCE_MAX_WORDS) {
      // Too long: end it at its widest gap, keeping at least a third of the words in it.
      let cut = i;
      let widest = -1;
      for (let j = first + Math.ceil(SENTENCE_MAX_WORDS / 3); j <= i; j += 1) {
        const gap = words[j].start - words[j - 1].end;
        if (gap > widest) [widest, cut] = [gap, j];
      }
      close(cut);
    }
  }
  return sentences;
}
