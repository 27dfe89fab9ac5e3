// What pocketsphinx_continuous prints with `-time yes`, read once for the worker's offline engine
// and the local sandbox's stand-in for OpenAI's transcription API (both run Debian's pocketsphinx).

export interface TimedWord {
  text: string;
  start: number;
  end: number;
  /** The word's posterior probability, 0..1. */
  confidence: number;
}

/** One line of `-time yes` output: word, start, end (seconds from the start of the file), posterior. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/** The words, without silences, fillers, utterance marks and the hypothesis lines between them. */
export function parsePocketsphinxTimes(output: string): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of output.split('\n')) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const [, token, start, end, posterior] = match;
    // <s>, </s>, <sil> and fillers such as [NOISE] or ++UH++ are not words.
    if (/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)) continue;
    // "the(2)": the dictionary's second pronunciation of "the".
    words.push({ text: token.replace(/\(\d+\)$/, ''), start: Number(start), end: Number(end), confidence: Math.min(1, Number(posterior)) });
  }
  return words;
}
