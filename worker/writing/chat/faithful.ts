// What the chat engine keeps of an answer, so nothing it publishes is made up or too long: quotes
// only where the transcript says them (word for word, punctuation and case aside), chapters only
// at the transcript's sentences and by the chapter rules, keywords that are not stop words, and
// every text within its limit (cut at a word). A bad item is dropped or cut, never the answer.
import type { Quote } from '../../../supabase/functions/_shared/domain/episode-content.ts';
import type { Transcript } from '../../../supabase/functions/_shared/domain/transcript.ts';
import { clockTime } from '../../content/caption-files.ts';
import { hashtag } from '../../content/clip-copy.ts';
import { stopwordsOf } from '../../content/stopwords.ts';
import { wordsIn, writtenWithoutSpaces } from '../../content/words.ts';

/** A quote is at least this many words (or, in a language without spaces, characters): shorter says nothing. */
const MIN_QUOTE_WORDS = 4;
const MIN_QUOTE_CHARACTERS = 8;
export const MAX_KEYWORDS = 12;
/** The subscriber's show-notes editor takes keywords of at most 60 characters. */
const KEYWORD_LENGTH = 60;
const MAX_HASHTAGS = 6;

/** Words as quotes are compared: lower case, letters and digits only, single spaces. */
const comparable = (text: string) => text.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * Finds quotes in the transcript: the index of the sentence a quote starts in, or null when the
 * transcript does not say it (in a language with spaces, only whole words match).
 */
export function quoteFinder(transcript: Pick<Transcript, 'sentences' | 'language'>) {
  const spaced = !writtenWithoutSpaces(transcript.language);
  const offsets: number[] = [];
  let text = ' ';
  for (const sentence of transcript.sentences) {
    offsets.push(text.length);
    text += `${comparable(sentence.text)} `;
  }
  return (quote: string): number | null => {
    const wanted = comparable(quote);
    const long = spaced ? wanted.split(' ').length >= MIN_QUOTE_WORDS : [...wanted].length >= MIN_QUOTE_CHARACTERS;
    if (!wanted || !long) return null;
    const at = spaced ? text.indexOf(` ${wanted} `) + 1 : text.indexOf(wanted);
    if (at <= 0) return null;
    let low = 0;
    let high = offsets.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (offsets[middle] <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  };
}

/** The quotes the transcript says, each with its time in the episode file; at most `count`, in the episode's order. */
export function faithfulQuotes(texts: readonly string[], transcript: Pick<Transcript, 'sentences' | 'language'>, at: number, count: number): Quote[] {
  const find = quoteFinder(transcript);
  const seen = new Set<string>();
  const quotes: Quote[] = [];
  for (const text of texts) {
    const index = find(text);
    const clean = text.replace(/\s+/g, ' ').trim().replace(/^["“”«»„']+|["“”«»„']+$/g, '');
    if (index === null || seen.has(comparable(clean)) || quotes.length >= count) continue;
    seen.add(comparable(clean));
    const start = transcript.sentences[index].start + at;
    quotes.push({ start, time: clockTime(start), text: clean });
  }
  return quotes.sort((a, b) => a.start - b.start);
}

/** One line of text, no quotation marks around it, cut at a word to `limit` characters. */
export function line(text: string, limit: number): string {
  return fitText(text.replace(/\s+/g, ' ').trim().replace(/^["“”«»„']+|["“”«»„']+$/g, ''), limit);
}

/**
 * Text cut at a word (with an ellipsis) to `limit` by `measure`; its line breaks kept (at most one
 * blank line in a row), spaces within a line made single.
 */
export function fitText(text: string, limit: number, measure: (s: string) => number = (s) => [...s].length): string {
  const clean = text
    .split('\n')
    .map((l) => l.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (measure(clean) <= limit) return clean;
  const pieces = clean.split(/(?<=\s)/);
  let out = '';
  for (const piece of pieces) {
    if (measure(`${out}${piece}`.trimEnd() + '…') > limit) break;
    out += piece;
  }
  // One word longer than the limit: cut inside it.
  if (!out.trim()) out = [...clean].slice(0, Math.max(0, limit - 1)).join('');
  return `${out.trimEnd().replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** Keywords: trimmed, no hash signs, no stop words alone, no repeats, each within its length. */
export function cleanKeywords(keywords: readonly string[], language: string): string[] {
  const stopwords = stopwordsOf(language);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const keyword of keywords) {
    const text = keyword.replace(/^#+/, '').replace(/\s+/g, ' ').trim();
    const words = wordsIn(text, language);
    if (!text || [...text].length > KEYWORD_LENGTH || words.every((w) => stopwords.has(w)) || seen.has(words.join(' '))) continue;
    seen.add(words.join(' '));
    kept.push(text);
    if (kept.length >= MAX_KEYWORDS) break;
  }
  return kept;
}

/** Hashtags as #CamelCase, no repeats; from the keywords when the engine gave none. */
export function cleanHashtags(hashtags: readonly string[], keywords: readonly string[]): string[] {
  const tags = [...new Set(hashtags.map(hashtag).filter(Boolean))];
  return (tags.length ? tags : [...new Set(keywords.map(hashtag).filter(Boolean))]).slice(0, MAX_HASHTAGS);
}

/** A title that says one thing twice ("Country: Country"): its parts around a colon or dash compare equal. */
export function repeatsItself(title: string): boolean {
  const parts = title.split(/\s*[:|–—-]\s+/).map(comparable).filter(Boolean);
  return parts.length > 1 && new Set(parts).size < parts.length;
}
