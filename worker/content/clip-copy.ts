// What a clip is called and what its posts say, made from its own words. Pure.
//
// Title: the clip's most telling sentence (a question first, then the one with most of the
// episode's keywords, of a readable length), cut at a word to 70 characters. Hashtags: the
// episode's keywords the clip says, then the others, as #CamelCase. Each platform's post keeps
// to its limit: YouTube title 100 and description 5,000 characters; X 280 (weighted as X
// counts, CJK double); LinkedIn 3,000; WordPress has none that matters. Without words the clip
// keeps its file name as its title, as before.
import { PLATFORM_TEXT_LIMITS as LIMITS, xLength, type ClipPosts } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import { htmlText } from './platform-text.ts';
import { isQuestion, tokens } from './words.ts';

export interface ClipCopy {
  title: string;
  posts: ClipPosts;
}

const STOPWORDS = new Set(
  ('a about above after again against all also am an and any are aren\'t as at be because been before being below between both but by can ' +
    'could did didn\'t do does doesn\'t doing don\'t down during each even every few for from further get gets getting go going gonna got had ' +
    'has have having he her here hers him his how i i\'m if in into is isn\'t it it\'s its just know like lot make many may me might more most ' +
    'much must my myself need no nor not now of off on once one only or other our ours out over own really right said same say says see she ' +
    'should so some something still such take than that that\'s the their them then there there\'s these they thing things think this those ' +
    'through to too two uh um under until up us very want was way we well were what when where which while who why will with would yeah yes ' +
    'you you\'re your yours okay actually kind sort mean going people time lot little pretty maybe sure ' +
    'ich und der die das ein eine nicht ist es le la les un une et est que de del el los las en y que se no')
    .split(' '),
);

/**
 * The episode's keywords when none are given: the most frequent content words (4+ letters, no
 * stopwords), ties by first use, at most `count`.
 */
export function localKeywords(texts: string[], count = 8): string[] {
  const seen = new Map<string, { n: number; first: number }>();
  let position = 0;
  for (const text of texts) {
    for (const word of tokens(text)) {
      position += 1;
      if (word.length < 4 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      const entry = seen.get(word) ?? { n: 0, first: position };
      entry.n += 1;
      seen.set(word, entry);
    }
  }
  return [...seen.entries()]
    .filter(([, e]) => e.n >= 2)
    .sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)
    .slice(0, count)
    .map(([w]) => w);
}

/** "#CamelCase" from a keyword (letters and digits only); empty when nothing is left. */
export function hashtag(keyword: string): string {
  const parts = keyword.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return parts.length ? `#${parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('')}` : '';
}

/** `text` cut at a word boundary to fit `limit` by `measure`, with an ellipsis when cut. */
export function fit(text: string, limit: number, measure: (s: string) => number = (s) => [...s].length): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (measure(clean) <= limit) return clean;
  const words = clean.split(' ');
  let out = '';
  for (const word of words) {
    const next = out ? `${out} ${word}` : word;
    if (measure(`${next}…`) > limit) break;
    out = next;
  }
  // One word longer than the limit: cut inside it.
  if (!out) out = [...clean].slice(0, Math.max(0, limit - 1)).join('');
  return `${out.replace(/[\s,;:.!?-]+$/, '')}…`;
}

const sentenceCase = (text: string) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t ? t[0].toUpperCase() + t.slice(1) : t;
};

/** Ends with a full stop unless it already ends a sentence (engines without punctuation). */
const punctuated = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}${isQuestion(text) ? '?' : '.'}`);

/** The sentence that names the clip best. */
function titleSentence(sentences: string[], keywords: Set<string>): string {
  const scored = sentences.map((s, i) => {
    const words = tokens(s);
    const hits = words.filter((w) => keywords.has(w)).length;
    const readable = words.length >= 4 && words.length <= 14 ? 1 : 0;
    return { s, score: (isQuestion(s) ? 2 : 0) + hits + readable - i * 0.01 };
  });
  scored.sort((a, b) => b.score - a.score);
  return scored[0]?.s ?? '';
}

/**
 * Title and posts for a clip from its sentences. `keywords` are the episode's (show notes', or
 * localKeywords); `episodeTitle` is named in the longer posts.
 */
export function clipCopy(sentences: string[], keywords: string[], episodeTitle: string): ClipCopy | null {
  const said = sentences.map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (!said.length) return null;
  const keywordSet = new Set(keywords.flatMap((k) => tokens(k)));
  const title = fit(punctuated(sentenceCase(titleSentence(said, keywordSet))), LIMITS.title);
  const spoken = new Set(said.flatMap((s) => tokens(s)));
  const ordered = [...keywords.filter((k) => tokens(k).some((t) => spoken.has(t))), ...keywords.filter((k) => !tokens(k).some((t) => spoken.has(t)))];
  const tags = [...new Set(ordered.map(hashtag).filter(Boolean))];
  const quote = said.map((s) => punctuated(sentenceCase(s))).join(' ');
  const from = `From "${episodeTitle}".`;

  const x = (() => {
    const tagLine = tags.slice(0, 3).join(' ');
    const room = LIMITS.x - (tagLine ? xLength(tagLine) + 2 : 0);
    const body = fit(quote, room - 2, xLength);
    return tagLine ? `“${body}”\n\n${tagLine}` : `“${body}”`;
  })();
  const linkedin = fit(`${title}\n\n“${quote}”\n\n${from}\n\n${tags.slice(0, 5).join(' ')}`.trim(), LIMITS.linkedin, (s) => [...s].length);
  const youtubeTitle = fit(`${title} ${tags.slice(0, 1).join(' ')}`.trim(), LIMITS.youtubeTitle);
  const description = fit(`${quote}\n\n${from}\n\n${[...tags.slice(0, 3), '#Shorts'].join(' ')}`, LIMITS.youtubeDescription);
  const content = [
    `<!-- wp:quote -->\n<blockquote class="wp-block-quote"><p>${htmlText(quote)}</p></blockquote>\n<!-- /wp:quote -->`,
    `<!-- wp:paragraph -->\n<p>${htmlText(from)} ${htmlText(tags.slice(0, 5).join(' '))}</p>\n<!-- /wp:paragraph -->`,
  ].join('\n');
  return {
    title,
    posts: {
      youtube: { title: youtubeTitle, description },
      x: { text: x },
      linkedin: { text: linkedin },
      wordpress: { title, content },
    },
  };
}

/** A title for an episode the subscriber did not name: its keywords, as a heading ("Budgets, Savings and Taxes"). */
export function episodeTitleFromWords(keywords: string[]): string | null {
  const words = keywords.slice(0, 3).map((k) => k[0].toUpperCase() + k.slice(1));
  if (!words.length) return null;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
