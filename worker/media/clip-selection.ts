// Which moments of an episode become clips. Pure: the audio profile comes from analysis.ts.
//
// The heuristic (docs/decisions.md, "Clip selection"):
// 1. The audio is measured in half-second windows: loudness (RMS, dB) and speech activity (the
//    share of the window outside silences that silencedetect found, i.e. pauses >= 0.3 s below
//    -35 dB). A window's energy is its loudness above the episode's quietest speech, times its
//    activity: lively, loud talk scores high; pauses, music beds and silence score low.
// 2. The clip length is CLIP_SECONDS, shortened for short episodes so the tier's number of
//    clips fits (never under MIN_CLIP_SECONDS).
// 3. Every window start is a candidate; its score is the mean energy over the clip length.
//    The best candidates are taken greedily, each at least a clip length away from those taken,
//    until the tier's count is reached or nothing fits: the peaks of the episode.
// 4. Each clip's edges move to the nearest pause within SNAP_SECONDS (the start to where speech
//    resumes after a pause, the end to where the next pause begins), so no clip starts or ends
//    mid-word when silence detection found a pause nearby.
// 5. Clips are returned in episode order.
//
// With a transcript (selectClipsFromWords) the candidates are runs of whole sentences instead,
// scored on what is said as well as how it sounds (docs/decisions.md, "Clips from the words").

import { CONTINUATIONS, isQuestion, tokens } from '../content/words.ts';

export interface Interval {
  start: number;
  end: number;
}

export interface AudioProfile {
  windowSeconds: number;
  /** RMS level per window, dB (-120 for digital silence). */
  windowDb: number[];
  silences: Interval[];
  durationSeconds: number;
}

export interface ClipRange extends Interval {
  score: number;
  /** Chosen from the transcript: the first sentence's index and one past the last. */
  sentences?: { first: number; end: number };
  /** Whether each edge sits at a detected pause (or the episode's start or end). */
  startsAtPause: boolean;
  endsAtPause: boolean;
}

const CLIP_SECONDS = 30;
export const MIN_CLIP_SECONDS = 5;
const SNAP_SECONDS = 3;

/** The clip length for `count` clips from an episode of `durationSeconds`. */
export function clipLength(durationSeconds: number, count: number): number {
  // Leave room between clips: count clips should cover at most two thirds of the episode.
  const fitting = (durationSeconds * 2) / 3 / Math.max(1, count);
  return Math.max(MIN_CLIP_SECONDS, Math.min(CLIP_SECONDS, fitting));
}

function overlap(a: Interval, b: Interval): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/** Per window: loudness above the quiet floor times the share of the window that is speech. */
function windowEnergy(profile: AudioProfile): number[] {
  const { windowSeconds, windowDb, silences } = profile;
  const voiced = windowDb.filter((db) => db > -90).sort((a, b) => a - b);
  // The 10th percentile of voiced windows: the episode's quiet talking level.
  const floor = voiced.length ? voiced[Math.floor(voiced.length * 0.1)] - 6 : -60;
  return windowDb.map((db, i) => {
    const window = { start: i * windowSeconds, end: (i + 1) * windowSeconds };
    const silent = silences.reduce((sum, s) => sum + overlap(window, s), 0);
    const activity = Math.max(0, 1 - silent / windowSeconds);
    return Math.max(0, db - floor) * activity;
  });
}

/** The pause edge (`key`) nearest to `at` within SNAP_SECONDS, if any. */
function nearestPauseEdge(at: number, silences: Interval[], key: 'start' | 'end'): number | null {
  let best: number | null = null;
  for (const s of silences) {
    const distance = Math.abs(s[key] - at);
    if (distance <= SNAP_SECONDS && (best === null || distance < Math.abs(best - at))) best = s[key];
  }
  return best;
}

/** Up to `count` clips at the episode's loudest, busiest moments, cut at pauses where possible. */
export function selectClips(profile: AudioProfile, count: number): ClipRange[] {
  const { durationSeconds, windowSeconds } = profile;
  if (count < 1 || durationSeconds < MIN_CLIP_SECONDS) return [];
  const length = Math.min(clipLength(durationSeconds, count), durationSeconds);
  const energy = windowEnergy(profile);
  const windowsPerClip = Math.max(1, Math.round(length / windowSeconds));

  // Mean energy of every clip-long span (prefix sums), one candidate per window start.
  const prefix = [0];
  for (const e of energy) prefix.push(prefix[prefix.length - 1] + e);
  const candidates: { start: number; score: number }[] = [];
  const lastStart = durationSeconds - length;
  for (let i = 0; i * windowSeconds <= lastStart + 1e-9; i++) {
    const j = Math.min(energy.length, i + windowsPerClip);
    const score = j > i ? (prefix[j] - prefix[i]) / windowsPerClip : 0;
    candidates.push({ start: i * windowSeconds, score });
  }
  // Best first; among equals the earlier moment.
  candidates.sort((a, b) => b.score - a.score || a.start - b.start);

  const taken: { start: number; score: number }[] = [];
  for (const candidate of candidates) {
    if (taken.length >= count) break;
    if (taken.every((t) => Math.abs(t.start - candidate.start) >= length)) taken.push(candidate);
  }

  taken.sort((a, b) => a.start - b.start);
  const clips: ClipRange[] = taken.map((t) => {
    // Start where speech resumes after a pause; end where the next pause begins. The episode's
    // own start and end are clean cuts too.
    const start = t.start <= 0 ? 0 : nearestPauseEdge(t.start, profile.silences, 'end');
    const end = t.start + length >= durationSeconds ? durationSeconds : nearestPauseEdge(t.start + length, profile.silences, 'start');
    const snapped = {
      start: Math.max(0, start ?? t.start),
      end: Math.min(durationSeconds, end ?? t.start + length),
    };
    // A snap may never make a clip shorter than the minimum.
    const ok = snapped.end - snapped.start >= MIN_CLIP_SECONDS;
    return {
      start: ok ? snapped.start : t.start,
      end: ok ? snapped.end : t.start + length,
      score: t.score,
      startsAtPause: ok && start !== null,
      endsAtPause: ok && end !== null,
    };
  });
  // Snapping moves edges by at most SNAP_SECONDS, so neighbours can overlap: the earlier clip
  // then ends at the last pause before the next one starts, or where it starts.
  for (let i = 0; i + 1 < clips.length; i++) {
    const clip = clips[i];
    const next = clips[i + 1];
    if (clip.end <= next.start) continue;
    const pause = profile.silences
      .filter((s) => s.start <= next.start && s.start - clip.start >= MIN_CLIP_SECONDS)
      .reduce<Interval | null>((last, s) => (!last || s.start > last.start ? s : last), null);
    clip.end = pause ? pause.start : next.start;
    clip.endsAtPause = pause !== null;
  }
  return clips;
}

/** A sentence of the transcript (worker/transcript/transcript.ts), as clip selection reads it. */
export interface SpokenSentence extends Interval {
  text: string;
}

/** Seconds a clip may reach past its target length to end on a sentence boundary. */
const SENTENCE_SLACK = 1.6;
/** How far an edge moves into the pause around it (never into the next sentence). */
const EDGE_PAD = 0.25;

interface Candidate {
  first: number;
  last: number;
  start: number;
  end: number;
  text: number;
  sound: number;
}

/** What is said, 0..1: the episode's keywords, a question answered, a thought that starts with the clip, the length. */
function textScore(sentences: SpokenSentence[], first: number, last: number, keywords: Set<string>, target: number): number {
  const words = sentences.slice(first, last + 1).flatMap((s) => tokens(s.text));
  const hits = new Set(words.filter((w) => keywords.has(w))).size;
  const keywordScore = Math.min(1, hits / 3);
  let answered = 0;
  for (let k = first; k < last; k++) if (isQuestion(sentences[k].text) && !isQuestion(sentences[k + 1].text)) answered = 1;
  const hook = isQuestion(sentences[first].text) ? 1 : 0;
  const complete = CONTINUATIONS.has(tokens(sentences[first].text)[0] ?? '') ? 0 : 1;
  const span = sentences[last].end - sentences[first].start;
  const fit = Math.max(0, 1 - Math.abs(span - target) / target);
  return 0.35 * keywordScore + 0.2 * answered + 0.1 * hook + 0.2 * complete + 0.15 * fit;
}

/**
 * Up to `count` clips that are whole sentences: scored half on what is said (textScore), half on
 * how it sounds (the loudness heuristic's energy, when there is sound), taken best first without
 * overlap, each edge in the pause around its sentence. Fewer than `count` when the sentences do
 * not fit; the caller tops up by sound.
 */
export function selectClipsFromWords(
  sentences: SpokenSentence[],
  profile: AudioProfile | null,
  count: number,
  keywords: string[],
  durationSeconds: number,
): ClipRange[] {
  if (count < 1 || durationSeconds < MIN_CLIP_SECONDS || !sentences.length) return [];
  const target = Math.min(clipLength(durationSeconds, count), durationSeconds);
  const longest = Math.max(target * SENTENCE_SLACK, target + 10);
  const shortest = Math.max(MIN_CLIP_SECONDS, target * 0.5);
  const keywordSet = new Set(keywords.flatMap((k) => tokens(k)));
  const energy = profile ? windowEnergy(profile) : [];
  const soundOf = (start: number, end: number) => {
    if (!profile) return 0;
    const from = Math.floor(start / profile.windowSeconds);
    const to = Math.max(from + 1, Math.ceil(end / profile.windowSeconds));
    const part = energy.slice(from, to);
    return part.length ? part.reduce((a, b) => a + b, 0) / part.length : 0;
  };

  const candidates: Candidate[] = [];
  for (let first = 0; first < sentences.length; first++) {
    for (let last = first; last < sentences.length; last++) {
      const span = sentences[last].end - sentences[first].start;
      if (span > longest) break;
      if (span < shortest) continue;
      candidates.push({
        first,
        last,
        start: sentences[first].start,
        end: sentences[last].end,
        text: textScore(sentences, first, last, keywordSet, target),
        sound: soundOf(sentences[first].start, sentences[last].end),
      });
    }
  }
  const loudest = Math.max(0, ...candidates.map((c) => c.sound));
  const score = (c: Candidate) => (profile && loudest > 0 ? 0.5 * c.text + 0.5 * (c.sound / loudest) : c.text);
  candidates.sort((a, b) => score(b) - score(a) || a.start - b.start);

  const taken: Candidate[] = [];
  for (const c of candidates) {
    if (taken.length >= count) break;
    if (taken.every((t) => c.end <= t.start || c.start >= t.end)) taken.push(c);
  }
  taken.sort((a, b) => a.start - b.start);
  return taken.map((c) => {
    const before = c.first > 0 ? sentences[c.first - 1].end : 0;
    const after = c.last + 1 < sentences.length ? sentences[c.last + 1].start : durationSeconds;
    return {
      start: Math.max(0, c.start - Math.min(EDGE_PAD, Math.max(0, c.start - before) / 2)),
      end: Math.min(durationSeconds, c.end + Math.min(EDGE_PAD, Math.max(0, after - c.end) / 2)),
      score: score(c),
      startsAtPause: true,
      endsAtPause: true,
      sentences: { first: c.first, end: c.last + 1 },
    };
  });
}

/** The clips from the words, topped up by sound (without overlap) when the words give fewer than `count`. */
export function selectClipsWithWords(
  sentences: SpokenSentence[],
  profile: AudioProfile | null,
  count: number,
  keywords: string[],
  durationSeconds: number,
): ClipRange[] {
  const spoken = selectClipsFromWords(sentences, profile, count, keywords, durationSeconds);
  if (spoken.length >= count || !profile) return spoken;
  // Asked for more than needed: some of them overlap the clips from the words.
  const extra = selectClips(profile, count + spoken.length).filter((c) => spoken.every((s) => c.end <= s.start || c.start >= s.end));
  return [...spoken, ...extra.slice(0, count - spoken.length)].sort((a, b) => a.start - b.start);
}
