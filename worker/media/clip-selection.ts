// Which moments of an episode become clips, chosen as an editor would (docs/decisions.md, "Clips
// chosen like an editor would"). Pure: the audio profile comes from analysis.ts, the sentences and
// keywords from the transcript; what is said is read by clip-scoring.ts.
//
// With words, the candidates are runs of whole sentences within the clip lengths, scored on what
// is said and how it sounds (or by a writing engine's own rating of the best of them). Without
// words, the sound alone ranks stretches of the clip length; without sound, clips are spread
// through the episode. Either way, clips never overlap, leave a gap between them (no two
// neighbouring pieces of one stretch), hold at most half the episode together, and only moments
// scoring above a threshold are taken: a short episode or one with few good moments gets fewer
// clips than the plan allows, at least one. The greeting and the sign-off are taken only when
// nothing else is there.
import {
  readSentences,
  reasonFor,
  soundReason,
  soundScore,
  wordFacts,
  wordScore,
  type Interval,
  type SoundFacts,
  type SpokenSentence,
  type WordFacts,
} from './clip-scoring.ts';

export type { Interval, SpokenSentence };

export interface AudioProfile {
  windowSeconds: number;
  /** RMS level per window, dB (-120 for digital silence). */
  windowDb: number[];
  silences: Interval[];
  durationSeconds: number;
}

export interface ClipRange extends Interval {
  /** 0..1: how good a moment it is. */
  score: number;
  /** Why it was chosen, a short sentence the podcaster reads. */
  reason: string;
  /** Chosen from the transcript: the first sentence's index and one past the last. */
  sentences?: { first: number; end: number };
  /** Whether each edge sits at a detected pause (or the episode's start or end). */
  startsAtPause: boolean;
  endsAtPause: boolean;
}

/**
 * A clip's length, seconds: at least `min`, about `target` once the episode is two and a half
 * minutes long (a fifth of it before: two clips and the gaps around them fit in half), at most `max`. A moment runs from half the target to 1.6 times it, within
 * those. (The subscriber may move a clip to 5-90 s: set_clip_moment.)
 */
export const CLIP_SECONDS = { min: 5, target: 30, max: 60 } as const;
const TARGET_SHARE = 5;
const SHORTEST_OF_TARGET = 0.5;
const LONGEST_OF_TARGET = 1.6;
/** A moment scoring under this is no clip, unless the episode has nothing better at all. */
export const MIN_CLIP_SCORE = 0.55;
/** A stretch under this share of the liveliest one's energy is no clip by sound. */
const MIN_LIVELY = 0.75;
/** Clips together hold at most this share of the episode: highlights, not the episode cut up. */
export const MAX_COVERAGE = 0.5;
/** Seconds between two clips at least (with words, also a whole sentence). */
export const GAP_SECONDS = 2;
/** How far a sound-chosen edge may move to a pause. */
const SNAP_SECONDS = 3;
/** How far an edge moves into the pause around its sentence (never into the next sentence). */
const EDGE_PAD = 0.25;
/** An edge this close to a detected pause is on it. */
const PAUSE_TOLERANCE = 0.35;
/** The words' share of a moment's score when there is sound; the sound has the rest. */
const WORDS_SHARE = 0.65;
/** Moments a writing engine is asked to rate, per clip wanted. */
const SHORTLIST_PER_CLIP = 3;

/** The length aimed at for an episode of `durationSeconds`. */
export const targetLength = (durationSeconds: number) => Math.min(CLIP_SECONDS.target, Math.max(CLIP_SECONDS.min, durationSeconds / TARGET_SHARE));

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

interface SoundMeter {
  /** Mean energy between two times. */
  energy(start: number, end: number): number;
  /** Whether speech resumes after a pause at `at` (`start`), or a pause begins there (`end`). */
  atPause(at: number, edge: 'start' | 'end'): boolean;
}

function soundMeter(profile: AudioProfile): SoundMeter {
  const { windowSeconds, silences, durationSeconds } = profile;
  const prefix = [0];
  for (const e of windowEnergy(profile)) prefix.push(prefix[prefix.length - 1] + e);
  const windows = prefix.length - 1;
  return {
    energy(start, end) {
      const from = Math.min(windows, Math.max(0, Math.floor(start / windowSeconds)));
      const to = Math.min(windows, Math.max(from + 1, Math.ceil(end / windowSeconds)));
      return to > from ? (prefix[to] - prefix[from]) / (to - from) : 0;
    },
    atPause(at, edge) {
      if (edge === 'start' ? at <= PAUSE_TOLERANCE : at >= durationSeconds - PAUSE_TOLERANCE) return true;
      return silences.some((s) => Math.abs((edge === 'start' ? s.end : s.start) - at) <= PAUSE_TOLERANCE);
    },
  };
}

/** What the picking rules read of a moment. */
interface Pickable extends Interval {
  score: number;
  /** With words: its first and last sentence. */
  first?: number;
  last?: number;
  edge: WordFacts['edge'];
}

/** Neither overlapping nor neighbours: `gap` seconds between them, and with words a whole sentence. */
const apart = (a: Pickable, b: Pickable, gap: number) => {
  const [early, late] = a.start <= b.start ? [a, b] : [b, a];
  const sentenceBetween = early.last === undefined || late.first === undefined || late.first > early.last + 1;
  return late.start - early.end >= gap && sentenceBetween;
};

interface PickRules {
  count: number;
  durationSeconds: number;
  minScore: number;
  gap: number;
  coverage: number;
}

/**
 * The best moments by the rules, in episode order: above `minScore`, apart, within the coverage,
 * up to `count`; the greeting and the sign-off only when nothing else is there. At least one.
 */
export function pickMoments<T extends Pickable>(candidates: T[], rules: PickRules): T[] {
  const order = [...candidates].sort((a, b) => b.score - a.score || a.start - b.start);
  const taken: T[] = [];
  let held = 0;
  for (const c of order) {
    if (taken.length >= rules.count || c.score < rules.minScore) break;
    const length = c.end - c.start;
    if (c.edge || held + length > rules.coverage * rules.durationSeconds || !taken.every((t) => apart(c, t, rules.gap))) continue;
    taken.push(c);
    held += length;
  }
  const best = order.find((c) => !c.edge) ?? order[0];
  if (!taken.length && best && rules.count > 0) taken.push(best);
  return taken.sort((a, b) => a.start - b.start);
}

/** The words of an episode, as clip selection reads them. */
export interface SpokenEpisode {
  sentences: SpokenSentence[];
  keywords: string[];
  /** BCP 47, e.g. 'en-US': which greeting and sign-off words to look for. */
  language: string;
  durationSeconds: number;
  profile: AudioProfile | null;
}

/** A run of whole sentences that could be a clip. */
export interface MomentCandidate extends Pickable {
  first: number;
  last: number;
  words: WordFacts;
  sound: SoundFacts | null;
  /** A writing engine's reason, when it rated the moment. */
  reason?: string;
}

/** Every run of whole sentences within the clip lengths, scored on its words and its sound. */
export function momentCandidates(episode: SpokenEpisode): MomentCandidate[] {
  const { sentences, durationSeconds, profile } = episode;
  const target = targetLength(durationSeconds);
  const shortest = Math.max(CLIP_SECONDS.min, target * SHORTEST_OF_TARGET);
  const longest = Math.min(CLIP_SECONDS.max, target * LONGEST_OF_TARGET);
  const facts = readSentences(sentences, episode.keywords, episode.language, durationSeconds);
  const meter = profile ? soundMeter(profile) : null;
  const runs: { first: number; last: number; start: number; end: number; words: WordFacts; energy: number }[] = [];
  for (let first = 0; first < sentences.length; first++) {
    for (let last = first; last < sentences.length; last++) {
      const start = sentences[first].start;
      const end = sentences[last].end;
      if (end - start > longest) break;
      if (end - start < shortest) continue;
      runs.push({ first, last, start, end, words: wordFacts(facts, first, last, end - start, target), energy: meter?.energy(start, end) ?? 0 });
    }
  }
  const loudest = Math.max(0, ...runs.map((r) => r.energy));
  return runs.map(({ energy, ...run }) => {
    const sound = meter && loudest > 0 ? { lively: energy / loudest, startsAtPause: meter.atPause(run.start, 'start'), endsAtPause: meter.atPause(run.end, 'end') } : null;
    return { ...run, sound, edge: run.words.edge, score: combined(wordScore(run.words), sound) };
  });
}

const combined = (words: number, sound: SoundFacts | null) => (sound ? WORDS_SHARE * words + (1 - WORDS_SHARE) * soundScore(sound) : words);

const wordRules = (count: number, durationSeconds: number): PickRules => ({ count, durationSeconds, minScore: MIN_CLIP_SCORE, gap: GAP_SECONDS, coverage: MAX_COVERAGE });

/** The chosen runs as clips, each edge in the pause around its sentence. */
function sentenceClips(picked: MomentCandidate[], episode: SpokenEpisode): ClipRange[] {
  const { sentences, durationSeconds } = episode;
  return picked.map((c) => {
    const before = c.first > 0 ? sentences[c.first - 1].end : 0;
    const after = c.last + 1 < sentences.length ? sentences[c.last + 1].start : durationSeconds;
    return {
      start: Math.max(0, c.start - Math.min(EDGE_PAD, Math.max(0, c.start - before) / 2)),
      end: Math.min(durationSeconds, c.end + Math.min(EDGE_PAD, Math.max(0, after - c.end) / 2)),
      score: Math.round(c.score * 1000) / 1000,
      reason: c.reason ?? reasonFor(c.words, c.sound),
      startsAtPause: c.sound?.startsAtPause ?? true,
      endsAtPause: c.sound?.endsAtPause ?? true,
      sentences: { first: c.first, end: c.last + 1 },
    };
  });
}

/** Up to `count` clips of whole sentences, scored on the words and the sound; none when no run of sentences fits the clip lengths. */
export function selectClipsFromWords(episode: SpokenEpisode, count: number): ClipRange[] {
  if (count < 1 || !episode.sentences.length) return [];
  return sentenceClips(pickMoments(momentCandidates(episode), wordRules(count, episode.durationSeconds)), episode);
}

/** What a writing engine is shown of a moment to rate it. */
export interface MomentToRate extends Interval {
  text: string;
  /** The words-and-sound score and reason, for reference. */
  score: number;
  reason: string;
}

/** A writing engine's rating of moments, in their order: 0..1 and a short sentence a podcaster reads. */
export type RateMoments = (moments: readonly MomentToRate[]) => Promise<{ score: number; reason: string }[]>;

/**
 * As selectClipsFromWords, with a writing engine's rating: the best moments (by the rules, without
 * the threshold or the coverage, three per clip wanted) are rated, its score replaces the words'
 * part and its reason ours, and the clips are picked from them by the rules. An answer of another
 * length, a score outside 0..1 or an empty reason is refused (thrown): the caller keeps the default.
 */
export async function selectRatedClipsFromWords(episode: SpokenEpisode, count: number, rate: RateMoments): Promise<ClipRange[]> {
  if (count < 1 || !episode.sentences.length) return [];
  const shortlist = pickMoments(momentCandidates(episode), { ...wordRules(count * SHORTLIST_PER_CLIP, episode.durationSeconds), minScore: 0, coverage: Infinity });
  const text = (c: MomentCandidate) => episode.sentences.slice(c.first, c.last + 1).map((s) => s.text).join(' ');
  const rated = await rate(shortlist.map((c) => ({ start: c.start, end: c.end, text: text(c), score: c.score, reason: reasonFor(c.words, c.sound) })));
  if (rated.length !== shortlist.length) throw new Error(`the writing engine rated ${rated.length} of ${shortlist.length} moments`);
  const rescored = shortlist.map((c, i) => {
    const { score, reason } = rated[i];
    if (!(score >= 0 && score <= 1) || !reason.trim()) throw new Error(`the writing engine's rating of moment ${i + 1} is not a score of 0..1 with a reason`);
    return { ...c, score: combined(score, c.sound), reason: reason.trim() };
  });
  return sentenceClips(pickMoments(rescored, wordRules(count, episode.durationSeconds)), episode);
}

/** `count` clips spread through an episode without sound to rank: apart, within the coverage. */
export function spreadClips(durationSeconds: number, count: number): ClipRange[] {
  if (count < 1 || durationSeconds < CLIP_SECONDS.min) return [];
  const length = targetLength(durationSeconds);
  const n = Math.max(1, Math.min(count, Math.floor((MAX_COVERAGE * durationSeconds) / length)));
  const slot = durationSeconds / n;
  return Array.from({ length: n }, (_, i) => {
    const start = i * slot + (slot - length) / 2;
    return { start, end: start + length, score: 0, reason: soundReason({ lively: 0, startsAtPause: false, endsAtPause: false }, 'no sound'), startsAtPause: false, endsAtPause: false };
  });
}

/**
 * The stretch's edges moved to pauses within SNAP_SECONDS (the start where speech resumes, the end
 * where a pause begins): as many edges as can move, as little as they can, the clip at least the
 * minimum and at most SNAP_SECONDS longer than the stretch, within `bounds`. Null when even the
 * stretch itself is out of them.
 */
function snapToPauses(stretch: Interval, profile: AudioProfile, bounds: Interval): Interval | null {
  const near = (at: number, edge: 'start' | 'end') =>
    profile.silences.map((s) => (edge === 'start' ? s.end : s.start)).filter((t) => Math.abs(t - at) <= SNAP_SECONDS && t >= 0 && t <= profile.durationSeconds);
  const longest = stretch.end - stretch.start + SNAP_SECONDS;
  let best: (Interval & { snapped: number; moved: number }) | null = null;
  for (const start of [stretch.start, ...near(stretch.start, 'start')]) {
    for (const end of [stretch.end, ...near(stretch.end, 'end')]) {
      if (end - start > longest + 1e-9 || end - start < CLIP_SECONDS.min || start < bounds.start || end > bounds.end) continue;
      const snapped = Number(start !== stretch.start) + Number(end !== stretch.end);
      const moved = Math.abs(start - stretch.start) + Math.abs(end - stretch.end);
      if (!best || snapped > best.snapped || (snapped === best.snapped && moved < best.moved)) best = { start, end, snapped, moved };
    }
  }
  return best && { start: best.start, end: best.end };
}

/**
 * Clips by sound alone: stretches of the target length at least MIN_LIVELY as lively as the
 * liveliest, taken best first, each moved to pauses (snapToPauses) and kept only while the clips
 * stay apart (half a clip between them) and within the coverage; at least the liveliest. Silence:
 * spread.
 */
export function selectClips(profile: AudioProfile, count: number): ClipRange[] {
  const { durationSeconds, windowSeconds } = profile;
  if (count < 1 || durationSeconds < CLIP_SECONDS.min) return [];
  const length = targetLength(durationSeconds);
  const meter = soundMeter(profile);
  const stretches: (Interval & { lively: number })[] = [];
  for (let start = 0; start + length <= durationSeconds + 1e-9; start += windowSeconds) stretches.push({ start, end: start + length, lively: meter.energy(start, start + length) });
  const loudest = Math.max(0, ...stretches.map((s) => s.lively));
  if (loudest <= 0) return spreadClips(durationSeconds, count);
  stretches.forEach((s) => (s.lively /= loudest));
  stretches.sort((a, b) => b.lively - a.lively || a.start - b.start);
  const gap = Math.max(GAP_SECONDS, length / 2);
  const taken: (Interval & { lively: number })[] = [];
  let held = 0;
  for (const stretch of stretches) {
    if (taken.length >= count || (taken.length && stretch.lively < MIN_LIVELY)) break;
    const before = taken.filter((t) => t.end <= stretch.start).reduce((end, t) => Math.max(end, t.end + gap), 0);
    const after = taken.filter((t) => t.start >= stretch.end).reduce((start, t) => Math.min(start, t.start - gap), durationSeconds);
    const clip = taken.some((t) => overlap(t, stretch) > 0) ? null : snapToPauses(stretch, profile, { start: before, end: after });
    if (!clip || (taken.length && held + clip.end - clip.start > MAX_COVERAGE * durationSeconds)) continue;
    taken.push({ ...clip, lively: stretch.lively });
    held += clip.end - clip.start;
  }
  return taken
    .sort((a, b) => a.start - b.start)
    .map(({ start, end, lively }) => {
      const sound = { lively, startsAtPause: meter.atPause(start, 'start'), endsAtPause: meter.atPause(end, 'end') };
      return { start, end, score: Math.round(soundScore(sound) * 1000) / 1000, reason: soundReason(sound, 'no words'), startsAtPause: sound.startsAtPause, endsAtPause: sound.endsAtPause };
    });
}
