import { describe, expect, it } from 'vitest';
import { isQuestion } from '../content/words.ts';
import { clipLength, MIN_CLIP_SECONDS, selectClips, selectClipsWithWords, type AudioProfile, type Interval } from './clip-selection.ts';

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

const overlaps = (a: Interval, b: Interval) => Math.min(a.end, b.end) > Math.max(a.start, b.start);

describe('selectClips', () => {
  it('takes the loud, busy moments, in episode order', () => {
    const peaks = [
      { start: 200, end: 225 },
      { start: 600, end: 625 },
      { start: 1300, end: 1325 },
    ];
    const clips = selectClips(profile(1800, peaks), 3);
    expect(clips).toHaveLength(3);
    expect(clips.map((c) => c.start)).toEqual([...clips.map((c) => c.start)].sort((a, b) => a - b));
    for (const peak of peaks) expect(clips.some((c) => overlaps(c, peak))).toBe(true);
  });

  it('cuts at pauses: clips start where speech resumes and end where a pause begins', () => {
    const p = profile(1800, [{ start: 400, end: 430 }]);
    for (const clip of selectClips(p, 5)) {
      expect(clip.startsAtPause && clip.endsAtPause).toBe(true);
      expect(p.silences.some((s) => s.end === clip.start) || clip.start === 0).toBe(true);
      expect(p.silences.some((s) => s.start === clip.end) || clip.end === p.durationSeconds).toBe(true);
    }
  });

  it('gives the tier its count without overlaps, shortening clips for a short episode', () => {
    for (const count of [3, 5, 10]) {
      const clips = selectClips(profile(120), count);
      expect(clips).toHaveLength(count);
      clips.forEach((clip, i) => {
        expect(clip.end - clip.start).toBeGreaterThanOrEqual(MIN_CLIP_SECONDS);
        if (i > 0) expect(clip.start).toBeGreaterThanOrEqual(clips[i - 1].end);
      });
    }
    expect(clipLength(3600, 3)).toBe(30);
    expect(clipLength(120, 10)).toBe(8);
  });

  it('makes fewer clips only when the episode cannot hold them', () => {
    expect(selectClips(profile(12), 10).length).toBeLessThan(10);
    expect(selectClips(profile(3), 3)).toEqual([]);
  });
});

describe('selectClipsWithWords', () => {
  /** 4-second sentences with 0.5 s pauses; `said` overrides a sentence's words. */
  function sentences(count: number, said: Record<number, string> = {}) {
    return Array.from({ length: count }, (_, i) => ({
      text: said[i] ?? `this is filler sentence number ${i} about nothing much`,
      start: i * 4.5,
      end: i * 4.5 + 4,
    }));
  }

  it('starts and ends every clip on a sentence boundary, in the pause around it', () => {
    const spoken = sentences(60);
    const duration = 60 * 4.5;
    const clips = selectClipsWithWords(spoken, profile(duration), 5, [], duration);
    expect(clips).toHaveLength(5);
    for (const clip of clips) {
      const { first, end } = clip.sentences as { first: number; end: number };
      expect(clip.start).toBeLessThanOrEqual(spoken[first].start);
      expect(clip.start).toBeGreaterThanOrEqual(first > 0 ? spoken[first - 1].end : 0);
      expect(clip.end).toBeGreaterThanOrEqual(spoken[end - 1].end);
      expect(clip.end).toBeLessThanOrEqual(end < spoken.length ? spoken[end].start : duration);
      // No word of a sentence outside the clip is inside it.
      expect(spoken.filter((s) => s.end > clip.start && s.start < clip.end)).toEqual(spoken.slice(first, end));
    }
    clips.slice(1).forEach((clip, i) => expect(clip.start).toBeGreaterThanOrEqual(clips[i].end));
  });

  it('prefers what is said: a question answered, with the episode\'s keywords, over louder filler', () => {
    const said = {
      30: 'why do budgets fail for most households',
      31: 'budgets fail because savings are treated as leftovers',
      32: 'pay your savings first and the budget holds',
    };
    const duration = 60 * 4.5;
    // The loud stretch is elsewhere (40-80 s).
    const clips = selectClipsWithWords(sentences(60, said), profile(duration, [{ start: 40, end: 80 }]), 3, ['budgets', 'savings'], duration);
    expect(clips.some((c) => c.sentences?.first === 30)).toBe(true);
    // Loudness still counts: one of the clips is in the loud stretch.
    expect(clips.some((c) => c.start < 80 && c.end > 40)).toBe(true);
  });

  it('recognises questions without punctuation, as engines without it write them', () => {
    expect(isQuestion('how do you start')).toBe(true);
    expect(isQuestion('Is it worth it?')).toBe(true);
    expect(isQuestion('we start with budgets')).toBe(false);
  });

  it('tops up by sound when the sentences cannot give the tier its count', () => {
    // One long sentence in a 120 s episode: a single clip from the words, the rest by sound.
    const spoken = [{ text: 'a single sentence that goes on', start: 10, end: 30 }];
    const clips = selectClipsWithWords(spoken, profile(120), 3, [], 120);
    expect(clips).toHaveLength(3);
    expect(clips.filter((c) => c.sentences)).toHaveLength(1);
    clips.slice(1).forEach((clip, i) => expect(clip.start).toBeGreaterThanOrEqual(clips[i].end));
  });
});
