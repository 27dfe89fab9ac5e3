// Words as the text stages read them: tokens, questions, and the openers of a sentence that
// continues the one before it. Pure.

/** Lower-case word tokens of a text (languages with spaces between words). */
export const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** Languages written without spaces between words: their words are found by ICU's word breaker. */
const UNSPACED = new Set(['ja', 'zh', 'th', 'lo', 'km', 'my']);
const segmenters = new Map<string, Intl.Segmenter>();

/** Whether `language` (ISO 639-1 or BCP 47) is written without spaces between words. */
export const writtenWithoutSpaces = (language: string) => UNSPACED.has(language.toLowerCase().split(/[-_]/)[0]);

/** Lower-case words of a text in `language` (ISO 639-1 or BCP 47): ICU's word breaks for Japanese or Chinese. */
export function wordsIn(text: string, language: string): string[] {
  if (!writtenWithoutSpaces(language)) return tokens(text);
  const code = language.toLowerCase().split(/[-_]/)[0];
  let segmenter = segmenters.get(code);
  if (!segmenter) segmenters.set(code, (segmenter = new Intl.Segmenter(code, { granularity: 'word' })));
  return [...segmenter.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);
}

const QUESTION_OPENERS = new Set(['what', 'why', 'how', 'who', 'when', 'where', 'which', 'whose', 'is', 'are', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'will', 'have', 'has', 'isn\'t', 'aren\'t', 'don\'t', 'doesn\'t']);

/** Openers of a sentence that continues the one before it: not where a thought starts. */
export const CONTINUATIONS = new Set(['and', 'but', 'so', 'or', 'because', 'which', 'that', 'then', 'also', 'too', 'it', 'this', 'he', 'she', 'they']);

/** A question by its mark, or (engines without punctuation) by its first word. */
export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text) || QUESTION_OPENERS.has(tokens(text)[0] ?? '');
}
