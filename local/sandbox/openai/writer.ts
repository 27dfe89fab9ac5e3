// The chat sandbox's writing: valid structured answers built deterministically from the words a
// request gives it, for the four schemas the worker's chat engine asks for (worker/writing/chat):
//   episode_part_notes  the transcript's `[number | hh:mm:ss] text` lines: a summary of its first
//                       sentences, a chapter every two minutes at a real sentence, its longest
//                       sentences as quotes (word for word), its most frequent words as keywords;
//   episode_texts       the parts' notes (the request's JSON block): titles, summary, chapters,
//                       keywords, hashtags and an article from them;
//   clip_texts          each clip's words (the JSON block): title, hook and posts within limits;
//   moment_ratings      the clips' candidate moments (the JSON block): a score from their words
//                       (a question, the length) and a reason, for every moment.
// `unfaithful` answers the same with what a careless model adds: an invented quote, a chapter at
// no sentence, a title that repeats itself, texts over the platforms' limits.
import stopwordsIso from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };
import { PLATFORM_TEXT_LIMITS as LIMITS, xLength } from '../../../supabase/functions/_shared/domain/episode-clips.ts';

export const SANDBOX_SCHEMAS = ['episode_part_notes', 'episode_texts', 'clip_texts', 'moment_ratings'] as const;
export type SandboxSchema = (typeof SANDBOX_SCHEMAS)[number];
export const INVENTED_QUOTE = 'This sentence was never said in the episode at all.';

const STOPWORDS = new Set(stopwordsIso.en);
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
const capital = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/** `text` cut at a word to `limit` by `measure`. */
function cut(text: string, limit: number, measure: (s: string) => number = (s) => [...s].length): string {
  let out = '';
  for (const word of text.split(/\s+/)) {
    const next = out ? `${out} ${word}` : word;
    if (measure(next) > limit) break;
    out = next;
  }
  return out;
}

/** The most frequent words of 5 letters or more that are not stop words, most frequent first. */
function frequentWords(texts: readonly string[], count: number): string[] {
  const seen = new Map<string, number>();
  for (const word of texts.flatMap(words)) if (word.length >= 5 && !STOPWORDS.has(word)) seen.set(word, (seen.get(word) ?? 0) + 1);
  return [...seen.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, count).map(([w]) => w);
}

interface Line {
  sentence: number;
  seconds: number;
  text: string;
}

function transcriptLines(prompt: string): Line[] {
  return [...prompt.matchAll(/^\[(\d+) \| (\d\d):(\d\d):(\d\d)\] (.*)$/gm)].map((m) => ({
    sentence: Number(m[1]),
    seconds: Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]),
    text: m[5],
  }));
}

function jsonBlock(prompt: string): unknown {
  const block = /```json\n([\s\S]*?)\n```/.exec(prompt);
  return block ? JSON.parse(block[1]) : null;
}

function partNotes(prompt: string, unfaithful: boolean) {
  const lines = transcriptLines(prompt);
  const chapters: { sentence: number; title: string }[] = [];
  let last = -Infinity;
  for (const [i, line] of lines.entries()) {
    if (line.seconds < last + 120) continue;
    last = line.seconds;
    const topic = frequentWords(lines.slice(i, i + 6).map((l) => l.text), 2);
    chapters.push({ sentence: line.sentence, title: capital(topic.join(' and ') || `Part ${chapters.length + 1}`) });
  }
  const quotes = lines
    .filter((l) => words(l.text).length >= 8 && words(l.text).length <= 40)
    .sort((a, b) => b.text.length - a.text.length || a.sentence - b.sentence)
    .slice(0, 3)
    .map((l) => ({ sentence: l.sentence, text: l.text }));
  return {
    summary: `In this part: ${lines.filter((l) => words(l.text).length >= 4).slice(0, 3).map((l) => l.text).join(' ')}`,
    chapters: unfaithful ? [...chapters, { sentence: 999_999, title: 'Nowhere' }] : chapters,
    quotes: unfaithful ? [{ sentence: lines[0]?.sentence ?? 0, text: INVENTED_QUOTE }, ...quotes] : quotes,
    keywords: frequentWords(lines.map((l) => l.text), 6),
  };
}

interface Part {
  summary: string;
  chapters: { sentence: number; title: string }[];
  quotes: string[];
  keywords: string[];
}

function episodeTexts(prompt: string, unfaithful: boolean) {
  const parts = (jsonBlock(prompt) ?? []) as Part[];
  // Each part's first keyword, then each part's second, ...: the whole episode's topics.
  const rounds = Math.max(0, ...parts.map((p) => p.keywords.length));
  const keywords = [...new Set(Array.from({ length: rounds }, (_, r) => parts.flatMap((p) => p.keywords[r] ?? [])).flat())].slice(0, 8);
  const [k1 = 'this', k2 = 'that', k3 = 'more'] = keywords;
  const titles = [`${capital(k1)} and ${k2}`, `On ${k1}, ${k2} and ${k3}`, `${capital(k2)} talk`];
  const summary = `In this episode: ${cut(parts.map((p) => p.summary.replace(/^In this part: /, '')).join(' '), 600)}`;
  const quotes = parts.flatMap((p) => p.quotes);
  return {
    titles: unfaithful ? ['Country: Country', ...titles] : titles,
    summary,
    chapters: parts.flatMap((p) => p.chapters.map((c) => ({ sentence: c.sentence, title: c.title }))),
    keywords,
    hashtags: keywords.slice(0, 4),
    article: {
      title: titles[0],
      introduction: `This episode is about ${k1}, ${k2} and ${k3}.`,
      sections: parts.map((p, i) => ({ heading: p.chapters[0]?.title ?? `Part ${i + 1}`, paragraphs: [p.summary] })),
      quotes: unfaithful ? [INVENTED_QUOTE, ...quotes.slice(0, 2)] : quotes.slice(0, 2),
    },
  };
}

function clipTexts(prompt: string, unfaithful: boolean) {
  const clips = (jsonBlock(prompt) ?? []) as { clip: number; said: string }[];
  const tags = (/^Its hashtags: (.*)$/m.exec(prompt)?.[1] ?? '').trim();
  return {
    clips: clips.map(({ clip, said }) => {
      const first = said.split(/(?<=[.!?])\s+/)[0] ?? said;
      const title = capital(cut(first.replace(/[.!?]+$/, ''), 60));
      const hook = `Hear this: ${cut(first, 120)}`;
      const long = (limit: number) => `${hook} ${'and then some more words '.repeat(Math.ceil(limit / 20))}`;
      return {
        clip,
        title: unfaithful ? long(LIMITS.title) : title,
        hook,
        youtubeTitle: unfaithful ? long(LIMITS.youtubeTitle) : title,
        youtubeDescription: `${hook}\n\n${cut(said, 400)}\n\n${tags}`,
        x: unfaithful ? long(LIMITS.x) : `${cut(hook, LIMITS.x - xLength(tags) - 2, xLength)}\n\n${tags}`,
        linkedin: unfaithful ? long(LIMITS.linkedin) : `${hook}\n\n${cut(said, 1500)}\n\n${tags}`,
      };
    }),
  };
}

function momentRatings(prompt: string, unfaithful: boolean) {
  const moments = (jsonBlock(prompt) ?? []) as { moment: number; said: string }[];
  return {
    ratings: moments.map(({ moment, said }) => {
      const question = /\?/.test(said);
      const score = Math.min(100, 40 + (question ? 30 : 0) + Math.round(words(said).length / 3));
      return {
        moment,
        score: unfaithful ? 150 : score,
        reason: `Rated by the sandbox writer: ${question ? 'a question and its answer' : 'a thought of its own'} in ${words(said).length} words.`,
      };
    }),
  };
}

/** The answer's JSON for a schema, from the request's last user message. */
export function sandboxAnswer(schema: SandboxSchema, prompt: string, unfaithful: boolean): unknown {
  switch (schema) {
    case 'episode_part_notes':
      return partNotes(prompt, unfaithful);
    case 'episode_texts':
      return episodeTexts(prompt, unfaithful);
    case 'clip_texts':
      return clipTexts(prompt, unfaithful);
    case 'moment_ratings':
      return momentRatings(prompt, unfaithful);
  }
}
