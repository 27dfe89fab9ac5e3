import { describe, expect, it } from 'vitest';
import {
  CLIP_SECONDS,
  GAP_SECONDS,
  MAX_COVERAGE,
  MIN_CLIP_SCORE,
  pickMoments,
  selectClips,
  selectClipsFromWords,
  selectRatedClipsFromWords,
  spreadClips,
  targetLength,
  type AudioProfile,
  type ClipRange,
  type Interval,
  type SpokenEpisode,
  type SpokenSentence,
} from './clip-selection.ts';

/** Talk at -25 dB with 1 s pauses every 6 s, louder (-12 dB) inside `peaks`. */
function profile(durationSeconds: number, peaks: Interval[] = []): AudioProfile {
  const windowSeconds = 0.5;
  const silences: Interval[] = [];
  for (let t = 5; t < durationSeconds; t += 6) silences.push({ start: t, end: Math.min(durationSeconds, t + 1) });
  const windowDb = Array.from({ length: Math.ceil(durationSeconds / windowSeconds) }, (_, i) => {
    const t = i * windowSeconds + 0.25;
    if (silences.some((s) => t >= s.start && t < s.end)) return -120;
    return peaks.some((p) => t >= p.start && t < p.end) ? -12 : -25;
  });
  return { windowSeconds, windowDb, silences, durationSeconds };
}

/** Sentences 0.4 s a word with 0.6 s pauses between them, and the sound to go with them (even talk, silent pauses). */
function episode(texts: string[], keywords: string[] = [], language = 'en-US'): SpokenEpisode {
  const sentences: SpokenSentence[] = [];
  let t = 0.5;
  for (const text of texts) {
    const start = t;
    t += text.split(' ').length * 0.4;
    sentences.push({ text, start, end: t });
    t += 0.6;
  }
  const durationSeconds = t;
  const windowSeconds = 0.5;
  const silences = [{ start: 0, end: 0.5 }, ...sentences.map((s, i) => ({ start: s.end, end: sentences[i + 1]?.start ?? durationSeconds }))];
  const windowDb = Array.from({ length: Math.ceil(durationSeconds / windowSeconds) }, (_, i) => {
    const mid = i * windowSeconds + 0.25;
    return silences.some((s) => mid >= s.start && mid < s.end) ? -120 : -22;
  });
  return { sentences, keywords, language, durationSeconds, profile: { windowSeconds, windowDb, silences, durationSeconds } };
}

const overlaps = (a: Interval, b: Interval) => Math.min(a.end, b.end) > Math.max(a.start, b.start);
const held = (clips: Interval[]) => clips.reduce((sum, c) => sum + c.end - c.start, 0);

/** The rules every choice keeps: in order, apart by the gap and (with words) a whole sentence, within the coverage. */
function expectEditorsRules(clips: ClipRange[], durationSeconds: number, gap = GAP_SECONDS): void {
  clips.forEach((clip, i) => {
    expect(clip.end - clip.start).toBeGreaterThanOrEqual(CLIP_SECONDS.min - 0.5);
    expect(clip.score).toBeGreaterThanOrEqual(0);
    expect(clip.score).toBeLessThanOrEqual(1);
    expect(clip.reason).toMatch(/^[A-Z].{10,200}\.$/);
    if (i === 0) return;
    const before = clips[i - 1];
    expect(clip.start - before.end).toBeGreaterThanOrEqual(gap - 0.5);
    if (clip.sentences && before.sentences) expect(clip.sentences.first).toBeGreaterThan(before.sentences.end);
  });
  // Each edge may sit up to a quarter of a second into the pause around it.
  if (clips.length > 1) expect(held(clips)).toBeLessThanOrEqual(MAX_COVERAGE * durationSeconds + 0.5 * clips.length);
}

/** A show: greeting, three topics of five sentences (one with a question answered), sign-off. */
const SHOW = [
  'Welcome to the show.',
  'Today we talk about gardening, coffee and the library.',
  'First, gardening.',
  'My garden is full of tomatoes this summer.',
  'Tomatoes need water and a lot of sun in the garden.',
  'I water the garden every morning before work.',
  'The tomatoes in my garden are red and sweet.',
  'Next, coffee.',
  'How do you make a good cup of coffee?',
  'Good coffee starts with fresh beans, ground just before you brew.',
  'Then hot water, never boiling, over the ground coffee.',
  'A strong cup of coffee makes me happy every morning.',
  'Last, the library.',
  'The city library has a new building near the park.',
  'You can read books in the library and use the computers.',
  'The library is free for everyone who lives in the city.',
  'I go to the library every week to find a new book.',
  'Thank you for listening.',
  'See you next week.',
];
const SHOW_KEYWORDS = ['garden', 'tomatoes', 'coffee', 'library', 'books'];

describe('clips from the words', () => {
  it('picks the topics, not the greeting or the sign-off, fewer than the plan allows, never the episode cut end to end', () => {
    const show = episode(SHOW, SHOW_KEYWORDS);
    const clips = selectClipsFromWords(show, 10);
    expect(clips.length).toBeGreaterThan(0);
    expect(clips.length).toBeLessThan(10);
    expectEditorsRules(clips, show.durationSeconds);
    for (const clip of clips) {
      const { first, end } = clip.sentences as { first: number; end: number };
      expect(first).toBeGreaterThan(1);
      expect(end).toBeLessThanOrEqual(SHOW.length - 2);
      // Whole sentences: it starts in the pause before its first and ends in the pause after its last.
      expect(clip.start).toBeLessThanOrEqual(show.sentences[first].start);
      expect(clip.start).toBeGreaterThanOrEqual(show.sentences[first - 1].end);
      expect(clip.end).toBeGreaterThanOrEqual(show.sentences[end - 1].end);
      expect(clip.end).toBeLessThanOrEqual(show.sentences[end].start);
      expect(show.sentences.filter((s) => s.end > clip.start && s.start < clip.end)).toEqual(show.sentences.slice(first, end));
    }
    // The question and its answer is one of them, and says so.
    const coffee = clips.find((c) => c.sentences!.first <= 8 && c.sentences!.end > 9);
    expect(coffee?.reason).toMatch(/^A question and its answer.*'coffee'/);
  });

  it('gives the plan its count on a long episode with as many good moments, none overlapping or neighbouring', () => {
    // Twelve topics of SHOW's shape: about nine minutes.
    const topics = Array.from({ length: 12 }, (_, i) => SHOW.slice(2, 17).map((s) => s.replace(/\.$/, ` in week ${i + 1}.`)));
    const long = episode(['Welcome to the show.', ...topics.flat(), 'Thanks for listening.'], SHOW_KEYWORDS);
    const clips = selectClipsFromWords(long, 5);
    expect(clips).toHaveLength(5);
    expectEditorsRules(clips, long.durationSeconds);
    for (const clip of clips) expect(clip.score).toBeGreaterThanOrEqual(MIN_CLIP_SCORE);
  });

  it('passes over a greeting that scores well', () => {
    // A greeting full of the keywords, with a question and its answer: still no clip while the topics are there.
    const loudHello = ['Hello and welcome: why do tomatoes and coffee need a garden and a library?', 'Today we answer that with tomatoes, coffee and books.'];
    const topic = (i: number) => [
      `How do you grow sweet tomatoes in garden number ${i}?`,
      'Sweet tomatoes need full sun and deep water in the garden.',
      'Water the garden early every morning before the coffee.',
    ];
    const show = episode([...loudHello, ...Array.from({ length: 12 }, (_, i) => topic(i + 1)).flat()], SHOW_KEYWORDS);
    const clips = selectClipsFromWords(show, 10);
    expect(clips.length).toBeGreaterThan(2);
    expectEditorsRules(clips, show.durationSeconds);
    expect(clips.every((c) => c.sentences!.first >= 2)).toBe(true);
  });

  it('takes fewer clips when the moments are poor: thoughts cut off mid-way score under the threshold', () => {
    const rambling = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'and then we went on with it for a while' : 'but it was not that either'));
    const poor = episode(rambling);
    const clips = selectClipsFromWords(poor, 5);
    // Nothing good: the least bad one, never five.
    expect(clips).toHaveLength(1);
    expect(clips[0].score).toBeLessThan(MIN_CLIP_SCORE);
  });

  it('takes the greeting only when the episode has nothing else', () => {
    const hello = episode(['Hello and welcome to the show.', 'Today we talk about gardening and coffee.', 'I am your host, Sam, from the city.'], ['gardening']);
    const clips = selectClipsFromWords(hello, 3);
    expect(clips).toHaveLength(1);
    expect(clips[0].reason).toMatch(/^The episode's greeting: nothing better stood out/);
  });

  it('keeps the same moments without sound, scored on the words alone', () => {
    const show = episode(SHOW, SHOW_KEYWORDS);
    const withSound = selectClipsFromWords(show, 3);
    const wordsOnly = selectClipsFromWords({ ...show, profile: null }, 3);
    expect(wordsOnly.length).toBeGreaterThan(0);
    expectEditorsRules(wordsOnly, show.durationSeconds);
    expect(wordsOnly.every((c) => !/lively|pause/.test(c.reason))).toBe(true);
    expect(withSound.some((c) => /ends on a pause/.test(c.reason))).toBe(true);
  });
});

describe('the picking rules', () => {
  const moment = (first: number, last: number, score: number, edge: 'opening' | 'closing' | null = null) => ({ first, last, start: first * 5, end: last * 5 + 4, score, edge });
  const rules = { count: 5, durationSeconds: 200, minScore: MIN_CLIP_SCORE, gap: GAP_SECONDS, coverage: MAX_COVERAGE };

  it('never takes two neighbouring pieces of one stretch: a whole sentence and the gap between clips', () => {
    // The two best touch (sentences 10-12 and 13-15); the third best overlaps the first; the fourth is apart.
    const picked = pickMoments([moment(10, 12, 0.9), moment(13, 15, 0.85), moment(12, 14, 0.8), moment(20, 22, 0.7)], rules);
    expect(picked.map((m) => [m.first, m.last])).toEqual([[10, 12], [20, 22]]);
    // After a long pause, the next sentence still continues the stretch.
    expect(pickMoments([moment(10, 12, 0.9), { ...moment(13, 15, 0.85), start: 67 }], rules)).toHaveLength(1);
    // One sentence between (14): apart.
    expect(pickMoments([moment(10, 12, 0.9), moment(14, 16, 0.85)], rules)).toHaveLength(2);
  });

  it('stops at the threshold, the count and the coverage; the greeting or sign-off only when nothing else is there', () => {
    expect(pickMoments([moment(0, 2, 0.9), moment(10, 12, 0.5)], rules)).toHaveLength(1);
    expect(pickMoments(Array.from({ length: 9 }, (_, i) => moment(i * 4, i * 4 + 2, 0.9)), rules)).toHaveLength(5);
    // Each holds 14 s: an eighth would take the clips past half of the 200 s.
    expect(pickMoments(Array.from({ length: 9 }, (_, i) => moment(i * 4, i * 4 + 2, 0.9)), { ...rules, count: 10 })).toHaveLength(7);
    expect(pickMoments([moment(0, 2, 0.95, 'opening'), moment(10, 12, 0.6)], rules).map((m) => m.first)).toEqual([10]);
    expect(pickMoments([moment(0, 2, 0.95, 'opening'), moment(10, 12, 0.3)], rules).map((m) => m.first)).toEqual([10]);
    expect(pickMoments([moment(0, 2, 0.95, 'opening'), moment(30, 32, 0.9, 'closing')], rules).map((m) => m.first)).toEqual([0]);
    expect(pickMoments([], rules)).toEqual([]);
  });
});

describe("a writing engine's rating", () => {
  const show = episode(SHOW, SHOW_KEYWORDS);

  it('is asked about the best moments, and its score and reason decide', async () => {
    let asked: { text: string }[] = [];
    const clips = await selectRatedClipsFromWords(show, 1, async (moments) => {
      asked = [...moments];
      return moments.map((m) => (/library/i.test(m.text) ? { score: 0.95, reason: 'The library, told with warmth.' } : { score: 0.2, reason: 'Dull.' }));
    });
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(clips).toHaveLength(1);
    expect(clips[0].reason).toBe('The library, told with warmth.');
    expect(show.sentences.slice(clips[0].sentences!.first, clips[0].sentences!.end).map((s) => s.text).join(' ')).toMatch(/library/);
  });

  it('is refused when it answers another number of moments or a score outside 0..1', async () => {
    await expect(selectRatedClipsFromWords(show, 2, async () => [])).rejects.toThrow(/rated 0 of \d+ moments/);
    await expect(selectRatedClipsFromWords(show, 2, async (m) => m.map(() => ({ score: 7, reason: 'Great.' })))).rejects.toThrow(/not a score of 0..1/);
  });
});

describe('clips by sound alone', () => {
  it('takes the lively stretches, apart, in episode order, starting and ending at pauses', () => {
    const peaks = [
      { start: 200, end: 225 },
      { start: 600, end: 625 },
      { start: 1300, end: 1325 },
    ];
    const p = profile(1800, peaks);
    const clips = selectClips(p, 5);
    expect(clips.length).toBeGreaterThanOrEqual(3);
    expectEditorsRules(clips, 1800, 15);
    for (const peak of peaks) expect(clips.some((c) => overlaps(c, peak))).toBe(true);
    for (const clip of clips) {
      expect(p.silences.some((s) => Math.abs(s.end - clip.start) < 0.01)).toBe(true);
      expect(p.silences.some((s) => Math.abs(s.start - clip.end) < 0.01)).toBe(true);
      expect(clip.reason).toMatch(/^Chosen by sound alone/);
    }
  });

  it('never cuts a short episode end to end: at most half of it, a gap of half a clip between clips', () => {
    for (const seconds of [12, 40, 75, 120]) {
      const clips = selectClips(profile(seconds), 10);
      expect(clips.length, `${seconds} s`).toBeGreaterThan(0);
      expect(clips.length, `${seconds} s`).toBeLessThan(seconds < 60 ? 4 : 10);
      expectEditorsRules(clips, seconds, targetLength(seconds) / 2);
    }
    expect(selectClips(profile(3), 3)).toEqual([]);
  });

  it('spreads clips through a silent episode, within the same bounds', () => {
    const silent: AudioProfile = { windowSeconds: 0.5, windowDb: Array(240).fill(-120), silences: [{ start: 0, end: 120 }], durationSeconds: 120 };
    const clips = selectClips(silent, 10);
    expect(clips).toEqual(spreadClips(120, 10));
    expect(clips).toHaveLength(2);
    expectEditorsRules(clips, 120, 15);
    expect(clips[0].reason).toBe('Spread through the episode: it has no sound to choose by.');
    expect(spreadClips(3, 3)).toEqual([]);
  });
});
