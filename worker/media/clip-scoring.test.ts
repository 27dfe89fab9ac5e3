import { describe, expect, it } from 'vitest';
import { readSentences, reasonFor, soundReason, wordFacts, wordScore, type SpokenSentence } from './clip-scoring.ts';

/** Sentences 0.4 s a word with 0.6 s between them. */
function spoken(texts: string[]): SpokenSentence[] {
  let t = 0;
  return texts.map((text) => {
    const start = t;
    t += text.split(' ').length * 0.4;
    const sentence = { text, start, end: t };
    t += 0.6;
    return sentence;
  });
}

const durationOf = (sentences: SpokenSentence[]) => sentences[sentences.length - 1].end + 0.5;

const FILLER = 'The budget sheet has a column for every bill we pay.';

describe('the greeting and the sign-off', () => {
  it("marks the episode's first sentences with welcome words and its last with thanks for listening", () => {
    const sentences = spoken([
      'Welcome to the show.',
      'Today we talk about budgets and savings.',
      ...Array.from({ length: 20 }, () => FILLER),
      'Thanks for listening.',
      'See you next week.',
    ]);
    const facts = readSentences(sentences, [], 'en-US', durationOf(sentences));
    expect(facts.map((f) => f.edge)).toEqual(['opening', 'opening', ...Array(20).fill(null), 'closing', 'closing']);
  });

  it('keeps a cold open before the welcome, and a welcome in the middle of the episode is no greeting', () => {
    const sentences = spoken([
      'Why do most budgets fail in the first month?',
      'Hello and welcome to Money Matters.',
      ...Array.from({ length: 30 }, (_, i) => (i === 15 ? 'You are welcome to disagree with me on that.' : FILLER)),
    ]);
    const edges = readSentences(sentences, [], 'en', durationOf(sentences)).map((f) => f.edge);
    expect(edges.slice(0, 3)).toEqual([null, 'opening', null]);
    expect(edges.filter((e) => e !== null)).toHaveLength(1);
  });

  it('reads engines without punctuation, and other languages with phrases of their own', () => {
    const words = spoken(['welcome to show today we talk about gardening', 'my garden is full of tomatoes this summer', 'thank you for listening see you next week']);
    expect(readSentences(words, [], 'en-US', durationOf(words)).map((f) => f.edge)).toEqual(['opening', null, 'closing']);
    const german = spoken(['Herzlich willkommen zu unserem Podcast.', 'Heute geht es um Geld.', 'Sparen fängt klein an.', 'Danke fürs Zuhören und bis zum nächsten Mal.']);
    expect(readSentences(german, [], 'de-DE', durationOf(german)).map((f) => f.edge)).toEqual(['opening', 'opening', null, 'closing']);
    // A language without a list: nothing is marked.
    expect(readSentences(german, [], 'ja', durationOf(german)).every((f) => f.edge === null)).toBe(true);
  });
});

describe('what a run of sentences says', () => {
  const sentences = spoken([
    'Why do most household budgets fail?',
    'Budgets fail because savings come last.',
    'Pay your savings first and the budget holds.',
    'And that is the whole trick.',
    'Next, coffee.',
    'Good coffee starts with fresh beans.',
  ]);
  const facts = readSentences(sentences, ['budgets', 'savings', 'coffee'], 'en-US', durationOf(sentences));
  const seconds = (first: number, last: number) => sentences[last].end - sentences[first].start;

  it('knows a question and its answer, a thought that starts and ends with the clip, and the keywords it names once', () => {
    const qa = wordFacts(facts, 0, 3, seconds(0, 3), 10);
    expect(qa).toMatchObject({ answered: true, startsThought: true, endsThought: true, hook: 'question', keywords: ['budgets', 'savings'] });
    // "budget" and "budgets" are one keyword.
    expect(qa.keywords).toHaveLength(2);
    // Ends before "And that is the whole trick.": the thought goes on past the clip.
    expect(wordFacts(facts, 0, 2, seconds(0, 2), 10).endsThought).toBe(false);
    // Opens on "And": it needs the sentence before.
    expect(wordFacts(facts, 3, 3, seconds(3, 3), 10).startsThought).toBe(false);
    // Ends on the question: no answer.
    expect(wordFacts(facts, 0, 0, seconds(0, 0), 10)).toMatchObject({ answered: false, endsThought: false });
  });

  it('sees a topic turning inside a run: two segments glued are not one thought', () => {
    expect(wordFacts(facts, 1, 3, seconds(1, 3), 10).oneTopic).toBeGreaterThanOrEqual(0.75);
    expect(wordFacts(facts, 2, 5, seconds(2, 5), 10).oneTopic).toBeLessThan(0.5);
    // A turn is a fine place to start.
    expect(wordFacts(facts, 4, 5, seconds(4, 5), 10).oneTopic).toBe(1);
  });

  it('scores an answered question with keywords over a plain statement, and that over a cut-off thought', () => {
    const answered = wordScore(wordFacts(facts, 0, 3, seconds(0, 3), 10));
    const statement = wordScore(wordFacts(facts, 5, 5, 10, 10));
    const cut = wordScore(wordFacts(facts, 3, 4, seconds(3, 4), 10));
    expect(answered).toBeGreaterThan(0.9);
    expect(answered).toBeGreaterThan(statement);
    expect(statement).toBeGreaterThan(cut);
    for (const score of [answered, statement, cut]) expect(score >= 0 && score <= 1).toBe(true);
    // Far too short or too long for the target loses the length's part only.
    expect(wordFacts(facts, 5, 5, 2, 10).fit).toBeLessThan(0.5);
    expect(wordFacts(facts, 5, 5, 30, 10).fit).toBe(0);
  });

  it('says why in a sentence a podcaster reads', () => {
    const qa = wordFacts(facts, 0, 3, seconds(0, 3), 10);
    expect(reasonFor(qa, { lively: 0.6, startsAtPause: true, endsAtPause: true })).toBe("A question and its answer, complete in itself; names 'budgets' and 'savings'; ends on a pause.");
    expect(reasonFor(wordFacts(facts, 5, 5, 10, 10), { lively: 0.95, startsAtPause: false, endsAtPause: false })).toBe("A complete thought; names 'coffee'; lively delivery.");
    expect(reasonFor({ ...qa, edge: 'opening' }, null)).toMatch(/^The episode's greeting: nothing better stood out; names/);
    expect(soundReason({ lively: 1, startsAtPause: true, endsAtPause: true }, 'no words')).toBe(
      "Chosen by sound alone (no words to read): the episode's liveliest stretch; starts after a pause and ends on one.",
    );
  });
});
