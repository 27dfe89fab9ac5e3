// Show notes made from a transcript without any service (docs/decisions.md "The content engine"):
// topics by lexical cohesion between neighbouring sentences (TextTiling), chapters at those topics
// when the episode is long enough for them (chapters.ts), the summary and the quotes by sentence
// centrality (TextRank over TF-IDF cosine similarity) among the sentences the speech engine was
// surest of, keywords by RAKE-style phrase scores over the content words (the podcast language's
// stop words left out). Times are seconds of the episode file (`at` is where the transcript starts
// in it, after the intro).
import { clockTime } from './caption-files.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import type { ShowNotes } from '../../supabase/functions/_shared/domain/episode-content.ts';
import { chapterRoom, chapterStarts, chaptersAt } from './chapters.ts';
import { stopwordsOf } from './stopwords.ts';
import { wordsIn } from './words.ts';

const SUMMARY_SENTENCES = 3;
const QUOTES = 3;
const KEYWORDS = 8;
/** TextTiling's window: sentences compared on each side of a gap. */
const TILE_WINDOW = 3;
/** The blog article's sections of an episode too short for chapters: topics of at least this many sentences, at most MAX_SECTIONS. */
const MIN_SECTION_SENTENCES = 3;
const MAX_SECTIONS = 6;

/** A content word's key: plural folded ("tomatoes" and "tomato" count as one). */
const termKey = (word: string) => word.replace(/(?<=\p{L}{3})(es|s)$/u, '');

const isContent = (word: string, stopwords: ReadonlySet<string>) =>
  !stopwords.has(word) && !/^\d+$/.test(word) && (word.length >= 3 || /[^\p{Script=Latin}\p{Script=Cyrillic}]/u.test(word));

type Vector = Map<string, number>;

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    dot += v * (b.get(k) ?? 0);
  }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function add(into: Vector, from: Vector): void {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

/** PageRank over the sentence similarity graph (TextRank); answers a score per sentence. */
function textRank(vectors: Vector[]): number[] {
  const n = vectors.length;
  const sim = vectors.map((a, i) => vectors.map((b, j) => (i === j ? 0 : cosine(a, b))));
  const out = sim.map((row) => row.reduce((s, v) => s + v, 0));
  let rank = new Array<number>(n).fill(1 / Math.max(1, n));
  for (let iteration = 0; iteration < 30; iteration += 1) {
    rank = rank.map((_, i) => 0.15 / n + 0.85 * sim.reduce((s, row, j) => s + (out[j] ? (row[i] / out[j]) * rank[j] : 0), 0));
  }
  return rank;
}

/** Gap indexes (a topic starts at sentence g), deepest valley first: TextTiling depth scores above the cut-off. */
function topicGaps(counts: Vector[]): number[] {
  const n = counts.length;
  if (n < 2 * TILE_WINDOW) return [];
  const block = (from: number, to: number) => {
    const v: Vector = new Map();
    for (let i = Math.max(0, from); i < Math.min(n, to); i += 1) add(v, counts[i]);
    return v;
  };
  const gaps = Array.from({ length: n - 1 }, (_, k) => k + 1);
  const similarity = gaps.map((g) => cosine(block(g - TILE_WINDOW, g), block(g, g + TILE_WINDOW)));
  const depth = similarity.map((s, k) => {
    let left = s;
    for (let j = k - 1; j >= 0 && similarity[j] >= left; j -= 1) left = similarity[j];
    let right = s;
    for (let j = k + 1; j < similarity.length && similarity[j] >= right; j += 1) right = similarity[j];
    return left - s + (right - s);
  });
  const mean = depth.reduce((s, d) => s + d, 0) / depth.length;
  const sd = Math.sqrt(depth.reduce((s, d) => s + (d - mean) ** 2, 0) / depth.length);
  const cutoff = Math.max(0.05, mean - sd / 2);
  return gaps
    .map((g, k) => ({ g, d: depth[k] }))
    .filter(({ d }) => d >= cutoff)
    .sort((a, b) => b.d - a.d)
    .map(({ g }) => g);
}

/** Section starts of an episode too short for chapters: the deepest topic changes, none too near another. */
function sectionStarts(gaps: number[], count: number): number[] {
  const limit = Math.min(MAX_SECTIONS, Math.floor(count / MIN_SECTION_SENTENCES)) - 1;
  const chosen: number[] = [];
  for (const g of gaps) {
    if (chosen.length >= limit) break;
    if ([0, ...chosen, count].every((edge) => Math.abs(g - edge) >= MIN_SECTION_SENTENCES)) chosen.push(g);
  }
  return [0, ...chosen.sort((a, b) => a - b)];
}

/** RAKE: phrases are runs of content words; a word scores degree / frequency; a phrase the sum, times how often it is said. */
function keywordsOf(sentenceWords: string[][], stopwords: ReadonlySet<string>, count: number, minTimes = 2): string[] {
  const phrases = new Map<string, { words: string[]; times: number }>();
  for (const words of sentenceWords) {
    let run: string[] = [];
    const end = () => {
      // Phrases of up to 3 words; longer runs are rarely one idea in speech.
      for (let size = Math.min(3, run.length); size >= 1; size -= 1) {
        for (let i = 0; i + size <= run.length; i += 1) {
          const phrase = run.slice(i, i + size);
          const key = phrase.map(termKey).join(' ');
          const entry = phrases.get(key) ?? { words: phrase, times: 0 };
          entry.times += 1;
          phrases.set(key, entry);
        }
      }
      run = [];
    };
    for (const word of words) {
      if (isContent(word, stopwords)) run.push(word);
      else end();
    }
    end();
  }
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const [key, { words, times }] of phrases) {
    if (words.length === 1) frequency.set(key, times);
    for (const k of key.split(' ')) degree.set(k, (degree.get(k) ?? 0) + times * words.length);
  }
  const scored = [...phrases.entries()]
    // Said once, a phrase is as likely a misrecognition as a topic (chapter titles may need them).
    .filter(([, p]) => p.times >= minTimes)
    .map(([key, p]) => ({
      text: p.words.join(' '),
      key,
      score: p.times * key.split(' ').reduce((s, k) => s + (degree.get(k) ?? 0) / (frequency.get(k) ?? 1), 0),
    }))
    .sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
  const chosen: typeof scored = [];
  for (const candidate of scored) {
    if (chosen.length >= count) break;
    // A phrase sharing a word with one already chosen adds nothing ("sound" beside "microphone sounds").
    const own = new Set(candidate.key.split(' '));
    if (chosen.some((c) => c.key.split(' ').some((k) => own.has(k)))) continue;
    chosen.push(candidate);
  }
  return chosen.map((c) => c.text);
}

const capitalised = (text: string) => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);

/** "Tomatoes, gardening and sunlight". */
export function listTitle(items: readonly string[]): string {
  if (items.length <= 1) return capitalised(items[0] ?? '');
  return capitalised(`${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
}

/** The show notes' keywords alone (what the clips and the episode's title need before the notes). */
export function transcriptKeywords(transcript: Pick<Transcript, 'sentences' | 'language'>): string[] {
  return keywordsOf(transcript.sentences.map((s) => wordsIn(s.text, transcript.language)), stopwordsOf(transcript.language), KEYWORDS);
}

/** How sure the speech engine was of each sentence: its words' mean confidence (1 where the engine gives none). */
function sentenceConfidence(transcript: Pick<Transcript, 'sentences' | 'words'>): number[] {
  return transcript.sentences.map((s) => {
    const own = transcript.words.slice(s.firstWord, s.endWord);
    return own.length ? own.reduce((sum, w) => sum + (w.confidence ?? 1), 0) / own.length : 1;
  });
}

/** The indexes at or above the median of `values` (all of them when fewer than four). */
function surest(indexes: number[], values: number[]): Set<number> {
  if (indexes.length < 4) return new Set(indexes);
  const sorted = indexes.map((i) => values[i]).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return new Set(indexes.filter((i) => values[i] >= median));
}

/** A topic of the episode: its sentences and a title from its own words. */
export interface TopicSection {
  firstSentence: number;
  endSentence: number;
  title: string;
}

export interface ExtractiveNotes {
  notes: ShowNotes;
  /** The blog article's sections: the chapters, or (an episode too short for them) its topics. */
  sections: TopicSection[];
}

export function extractiveNotes(transcript: Pick<Transcript, 'sentences' | 'words' | 'durationSeconds' | 'language'>, at = 0): ExtractiveNotes {
  const stopwords = stopwordsOf(transcript.language);
  const sentences = transcript.sentences;
  const sentenceWords = sentences.map((s) => wordsIn(s.text, transcript.language));
  const counts: Vector[] = sentenceWords.map((words) => {
    const v: Vector = new Map();
    for (const w of words) if (isContent(w, stopwords)) v.set(termKey(w), (v.get(termKey(w)) ?? 0) + 1);
    return v;
  });
  const documentFrequency = new Map<string, number>();
  for (const v of counts) for (const k of v.keys()) documentFrequency.set(k, (documentFrequency.get(k) ?? 0) + 1);
  const idf = (k: string) => Math.log(1 + sentences.length / (documentFrequency.get(k) ?? 1));
  const rank = textRank(counts.map((v) => new Map([...v].map(([k, c]) => [k, c * idf(k)]))));
  const byRank = sentences.map((_, i) => i).sort((a, b) => rank[b] - rank[a] || a - b);

  // The summary and the quotes come from the sentences the speech engine was surest of: a misheard
  // sentence is worse there than a less central one.
  const confidence = sentenceConfidence(transcript);
  const summaryPool = surest(byRank.filter((i) => sentenceWords[i].length >= 5), confidence);
  const summaryIdx = byRank.filter((i) => summaryPool.has(i)).slice(0, SUMMARY_SENTENCES).sort((a, b) => a - b);
  const summary = summaryIdx.map((i) => sentences[i].text).join(' ');
  const quotePool = surest(byRank.filter((i) => sentenceWords[i].length >= 8 && sentenceWords[i].length <= 40), confidence);
  const quoteCandidates = byRank.filter((i) => quotePool.has(i));
  const quoteIdx = [...quoteCandidates.filter((i) => !summaryIdx.includes(i)), ...quoteCandidates.filter((i) => summaryIdx.includes(i))]
    .slice(0, QUOTES)
    .sort((a, b) => a - b);
  const quotes = quoteIdx.map((i) => ({ start: sentences[i].start + at, time: clockTime(sentences[i].start + at), text: sentences[i].text }));

  const keywords = keywordsOf(sentenceWords, stopwords, KEYWORDS);
  const gaps = topicGaps(counts);
  const chapterFirsts = chapterRoom(transcript.durationSeconds) ? chapterStarts(gaps, sentences, transcript.durationSeconds) : [];
  const firsts = chapterFirsts.length ? chapterFirsts : sentences.length ? sectionStarts(gaps, sentences.length) : [];
  const sections = firsts.map((first, c): TopicSection => {
    const end = firsts[c + 1] ?? sentences.length;
    const own = sentenceWords.slice(first, end);
    const repeated = keywordsOf(own, stopwords, 3);
    const words = repeated.length ? repeated : keywordsOf(own, stopwords, 2, 1);
    return { firstSentence: first, endSentence: end, title: words.length ? listTitle(words) : `Part ${c + 1}` };
  });
  const chapters = chapterFirsts.length ? chaptersAt(chapterFirsts, sections.map((s) => s.title), sentences, at) : [];
  return { notes: { summary, chapters, quotes, keywords }, sections };
}

export function showNotes(transcript: Pick<Transcript, 'sentences' | 'words' | 'durationSeconds' | 'language'>, at = 0): ShowNotes {
  return extractiveNotes(transcript, at).notes;
}

/** The show notes as Markdown (the file in Drive). */
export function showNotesMarkdown(title: string, notes: ShowNotes): string {
  const lines = [`# ${title}`, '', '## Summary', '', notes.summary || '(No speech was recognised.)', ''];
  if (notes.chapters.length) lines.push('## Chapters', '', ...notes.chapters.map((c) => `- ${c.time} ${c.title}`), '');
  if (notes.quotes.length) lines.push('## Key quotes', '', ...notes.quotes.map((q) => `> "${q.text}" (${q.time})`).flatMap((q) => [q, '']));
  if (notes.keywords.length) lines.push('## Keywords', '', notes.keywords.join(', '), '');
  return lines.join('\n');
}
