// Words as the text stages read them: tokens, questions, and the openers of a sentence that
// continues the one before it. Pure; for any language with spaces between words.

/** Lower-case word tokens of a text. */
export const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

const QUESTION_OPENERS = new Set(['what', 'why', 'how', 'who', 'when', 'where', 'which', 'whose', 'is', 'are', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'will', 'have', 'has', 'isn\'t', 'aren\'t', 'don\'t', 'doesn\'t']);
/** Openers of a sentence that continues the one before it: not where a thought starts. */
export const CONTINUATIONS = new Set(['and', 'but', 'so', 'or', 'because', 'which', 'that', 'then', 'also', 'too', 'it', 'this', 'he', 'she', 'they']);

/** A question by its mark, or (engines without punctuation) by its first word. */
export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text) || QUESTION_OPENERS.has(tokens(text)[0] ?? '');
}
