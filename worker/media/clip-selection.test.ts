import { describe, expect, it } from 'vitest';
import { clipLength, MIN_CLIP_SECONDS, selectClips, type AudioProfile, type Interval } from './clip-selection.ts';

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
