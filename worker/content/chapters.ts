// When an episode has chapters, and where they may start: one rule for every writing engine.
// Chapters start at sentences of the transcript (never at a time of their own), the first at
// 00:00:00 (platforms read chapters only then); a short episode has none, and neither has one
// with fewer than YouTube's three (docs/decisions.md "The writing engine").
import type { Chapter } from '../../supabase/functions/_shared/domain/episode-content.ts';
import type { TranscriptSentence } from '../../supabase/functions/_shared/domain/transcript.ts';
import { clockTime } from './caption-files.ts';

export const CHAPTER_RULES = {
  /** A shorter episode has no chapters. */
  minEpisodeSeconds: 300,
  /** No chapter is shorter. */
  minChapterSeconds: 60,
  /** At most one chapter per this many seconds of the episode ... */
  secondsPerChapter: 90,
  /** ... and never more than this. */
  maxChapters: 20,
  /** Fewer is no chapters (YouTube shows chapters from three). */
  minChapters: 3,
} as const;

/** How many chapters an episode this long may have (0: none). */
export function chapterRoom(durationSeconds: number): number {
  if (durationSeconds < CHAPTER_RULES.minEpisodeSeconds) return 0;
  return Math.min(CHAPTER_RULES.maxChapters, Math.floor(durationSeconds / CHAPTER_RULES.secondsPerChapter));
}

/**
 * The sentence indexes chapters start at, from `candidates` in order of preference (the first
 * wanted most): a candidate that is no sentence, or too near a start already kept or the
 * episode's end, is left out; then sorted, led by sentence 0. Empty when fewer than the rules' least.
 */
export function chapterStarts(candidates: readonly number[], sentences: readonly Pick<TranscriptSentence, 'start'>[], durationSeconds: number): number[] {
  const room = chapterRoom(durationSeconds);
  if (room < CHAPTER_RULES.minChapters || sentences.length === 0) return [];
  const kept = [0];
  for (const index of candidates) {
    if (kept.length >= room) break;
    if (!Number.isInteger(index) || index <= 0 || index >= sentences.length) continue;
    const at = sentences[index].start;
    const edges = [...kept.map((k) => (k === 0 ? 0 : sentences[k].start)), durationSeconds];
    if (edges.every((edge) => Math.abs(at - edge) >= CHAPTER_RULES.minChapterSeconds)) kept.push(index);
  }
  return kept.length >= CHAPTER_RULES.minChapters ? kept.sort((a, b) => a - b) : [];
}

/**
 * At most `room` of `candidates` (sentence indexes, in time order), spread over the episode: for
 * each of `room` equal shares of its time, the candidate nearest the share's start. For proposals
 * with no order of preference (more of them than chapters allowed), before chapterStarts.
 */
export function spreadOut(candidates: readonly number[], sentences: readonly Pick<TranscriptSentence, 'start'>[], durationSeconds: number): number[] {
  const room = chapterRoom(durationSeconds);
  const valid = [...new Set(candidates.filter((i) => Number.isInteger(i) && i >= 0 && i < sentences.length))];
  if (valid.length <= room) return valid;
  const chosen: number[] = [];
  for (let k = 0; k < room; k += 1) {
    const target = (k * durationSeconds) / room;
    const nearest = valid
      .filter((i) => !chosen.includes(i))
      .reduce((best, i) => (Math.abs(sentences[i].start - target) < Math.abs(sentences[best].start - target) ? i : best));
    chosen.push(nearest);
  }
  return chosen;
}

/** Chapters from their starts and titles; times are seconds of the episode file (`at`: where the transcript starts in it). */
export function chaptersAt(starts: readonly number[], titles: readonly string[], sentences: readonly Pick<TranscriptSentence, 'start'>[], at: number): Chapter[] {
  return starts.map((first, c) => {
    const start = c === 0 ? 0 : sentences[first].start + at;
    return { start, time: clockTime(start), title: titles[c], firstSentence: first, endSentence: starts[c + 1] ?? sentences.length };
  });
}
