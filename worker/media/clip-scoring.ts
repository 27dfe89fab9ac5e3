// What is said in a moment, as an editor reads it for a clip (docs/decisions.md, "Clips chosen
// like an editor would"). Pure: sentences in, facts, a score (0..1) and a reason out.
//
// A run of whole sentences scores on: a complete thought (it does not open on "and"/"but"..., its
// next sentence does not carry on from it, it does not end on an open question, it stays on one
// topic), a question and its answer, the episode's keywords it names, a hook-like opening (a
// question, a strong word, a number), and its length against the target. The episode's greeting
// (its first sentences with welcome words) and sign-off (its last, with thanks-for-listening words)
// are marked, so the selection passes them over unless nothing better exists.
import { CONTINUATIONS, isQuestion, tokens } from '../content/words.ts';
import { ENGLISH_STOPWORDS } from '../content/stopwords.ts';

export interface Interval {
  start: number;
  end: number;
}

/** A sentence of the transcript, as clip selection reads it. */
export interface SpokenSentence extends Interval {
  text: string;
}

/** Greeting and sign-off phrases per language (its two-letter code): tokens as `tokens()` gives them. */
const EPISODE_EDGES: Record<string, { opening: string[]; closing: string[] }> = {
  en: {
    opening: [
      'welcome', 'hello', 'greetings', 'hi everyone', 'hi everybody', 'hey everyone', 'hey everybody', 'hi and welcome', 'this is episode',
      'today on', 'today we', "today we're", 'today i', "today i'm", 'in this episode', "in today's episode", "i'm your host", 'my name is',
      'good morning', 'good evening', 'good afternoon',
    ],
    closing: [
      'thanks for listening', 'thank you for listening', 'thanks for watching', 'thank you for watching', 'see you next', 'see you soon',
      'until next time', 'subscribe', "that's all for", "that's it for", 'bye', 'goodbye', 'take care', 'catch you next', 'rate and review',
      'leave a review', 'thanks for tuning in', 'thank you for tuning in',
    ],
  },
  de: {
    opening: ['willkommen', 'hallo', 'servus', 'moin', 'heute sprechen', 'heute geht es', 'in dieser folge', 'ich bin euer', 'mein name ist'],
    closing: ['danke fürs zuhören', 'danke für eure aufmerksamkeit', 'bis zum nächsten mal', 'bis nächste woche', 'tschüss', 'abonniert', 'abonnieren'],
  },
  fr: {
    opening: ['bienvenue', 'bonjour', 'salut', "aujourd'hui on", "aujourd'hui nous", 'dans cet épisode', 'je suis votre'],
    closing: ["merci d'avoir écouté", 'merci de nous avoir écoutés', 'merci pour votre écoute', 'à la semaine prochaine', 'au revoir', 'à bientôt', 'abonnez'],
  },
  es: {
    opening: ['bienvenidos', 'bienvenidas', 'bienvenido', 'hola', 'hoy hablamos', 'hoy vamos', 'en este episodio', 'soy tu anfitrión'],
    closing: ['gracias por escuchar', 'hasta la próxima', 'nos vemos', 'adiós', 'suscríbete', 'suscribirte'],
  },
};
/** "hi" and "hey" greet only as a sentence's first word ("hey" mid-sentence is no greeting). */
const OPENING_FIRST_WORDS = new Set(['hi', 'hey', 'hallo', 'hola', 'salut']);
/** The greeting is looked for this far into the episode (seconds, or this share of it when longer), in its first sentences. */
const EDGE_WINDOW = { seconds: 30, share: 0.1, sentences: 5 };

/** Openers of a reply or an aside: a sentence that needs the one before it (beside CONTINUATIONS). */
const REPLY_OPENERS = new Set(['yes', 'yeah', 'no', 'nope', 'exactly', 'right', 'sure', 'well', 'absolutely', 'totally', 'okay', 'ok']);
/** Openers that turn to another topic: fine where a clip starts, a seam inside one. */
const TOPIC_TURNS = new Set(['next', 'now', 'moving', 'another', 'first', 'second', 'third', 'finally', 'lastly', 'last', 'anyway', 'alright']);
/** Words of an opening that makes people stay (English; elsewhere a question or a number does). */
const HOOK_WORDS = new Set([
  'secret', 'secrets', 'mistake', 'mistakes', 'truth', 'never', 'biggest', 'worst', 'best', 'surprising', 'imagine', 'problem', 'nobody',
  'everyone', 'myth', 'wrong', 'lesson', 'lessons', 'advice', 'tip', 'tips', 'trick', 'honestly', 'crazy',
]);

/** A content word's key: plural folded ("tomatoes" and "tomato" count as one). */
const fold = (word: string) => word.replace(/(?<=\p{L}{3})(es|s)$/u, '');

export interface SentenceFacts {
  question: boolean;
  /** Opens on "and", "but", "yes"...: carries on from the sentence before. */
  continues: boolean;
  /** Opens on "next", "now", "finally"...: a new topic starts here. */
  turn: boolean;
  hook: boolean;
  /** Its content words, folded. */
  content: Set<string>;
  /** The episode's keywords it names (as said). */
  keywords: string[];
  edge: 'opening' | 'closing' | null;
}

const hasPhrase = (said: string, phrases: string[]) => phrases.some((p) => said.includes(` ${p} `));

/** Which sentences are the episode's greeting and its sign-off (none for a language without phrases). */
function episodeEdges(sentences: SpokenSentence[], language: string, durationSeconds: number): ('opening' | 'closing' | null)[] {
  const edges: ('opening' | 'closing' | null)[] = sentences.map(() => null);
  const phrases = EPISODE_EDGES[language.slice(0, 2).toLowerCase()];
  if (!phrases) return edges;
  const window = Math.max(EDGE_WINDOW.seconds, durationSeconds * EDGE_WINDOW.share);
  const said = sentences.map((s) => tokens(s.text));
  const text = said.map((words) => ` ${words.join(' ')} `);
  const opening = sentences
    .map((_, i) => i)
    .filter((i) => i < EDGE_WINDOW.sentences && sentences[i].start < window)
    .filter((i) => hasPhrase(text[i], phrases.opening) || OPENING_FIRST_WORDS.has(said[i][0] ?? ''));
  if (opening.length) for (let i = opening[0]; i <= opening[opening.length - 1]; i++) edges[i] = 'opening';
  const lastFew = Math.max(0, sentences.length - EDGE_WINDOW.sentences);
  const closing = sentences.findIndex((s, i) => i >= lastFew && s.end > durationSeconds - window && edges[i] === null && hasPhrase(text[i], phrases.closing));
  if (closing >= 0) for (let i = closing; i < sentences.length; i++) edges[i] = 'closing';
  return edges;
}

/** Each sentence's facts, read once for every run it is part of. */
export function readSentences(sentences: SpokenSentence[], keywords: string[], language: string, durationSeconds: number): SentenceFacts[] {
  const keywordKeys = new Set(keywords.flatMap((k) => tokens(k)).map(fold));
  const english = language.toLowerCase().startsWith('en');
  const edges = episodeEdges(sentences, language, durationSeconds);
  return sentences.map((s, i) => {
    const words = tokens(s.text);
    const opener = words[0] ?? '';
    const content = words.filter((w) => w.length >= 4 && !ENGLISH_STOPWORDS.has(w) && !/^\d+$/.test(w));
    return {
      question: isQuestion(s.text),
      continues: CONTINUATIONS.has(opener) || REPLY_OPENERS.has(opener),
      turn: TOPIC_TURNS.has(opener),
      hook: words.some((w) => /\d/.test(w)) || (english && words.slice(0, 12).some((w) => HOOK_WORDS.has(w))),
      content: new Set(content.map(fold)),
      keywords: [...new Set(words.filter((w) => keywordKeys.has(fold(w))))],
      edge: edges[i],
    };
  });
}

/** What a run of sentences holds, as the score and the reason read it. */
export interface WordFacts {
  startsThought: boolean;
  endsThought: boolean;
  /** 1 when it stays on one topic: no topic turn inside, each sentence sharing words with the one before. */
  oneTopic: number;
  answered: boolean;
  hook: 'question' | 'line' | null;
  /** The episode's keywords it names, each once (a plural and its singular once). */
  keywords: string[];
  /** 1 when its length is near the target, less as it strays. */
  fit: number;
  edge: 'opening' | 'closing' | null;
}

/** The facts of sentences `first`..`last` (inclusive), `seconds` long, against a `target` length. */
export function wordFacts(facts: SentenceFacts[], first: number, last: number, seconds: number, target: number): WordFacts {
  const run = facts.slice(first, last + 1);
  const next = facts[last + 1];
  let linked = 0;
  let answered = false;
  for (let k = 1; k < run.length; k++) {
    if ([...run[k].content].some((w) => run[k - 1].content.has(w))) linked++;
    if (run[k - 1].question && !run[k].question) answered = true;
  }
  const cohesion = run.length > 1 ? linked / (run.length - 1) : 1;
  const turnInside = run.slice(1).some((s) => s.turn);
  const keywords = new Map<string, string>();
  for (const s of run) for (const k of s.keywords) if (!keywords.has(fold(k))) keywords.set(fold(k), k);
  const ratio = seconds / target;
  return {
    startsThought: !run[0].continues,
    endsThought: !run[run.length - 1].question && !(next?.continues ?? false),
    oneTopic: (turnInside ? 0 : 0.5) + 0.5 * cohesion,
    answered,
    hook: run[0].question ? 'question' : run[0].hook ? 'line' : null,
    keywords: [...keywords.values()],
    fit: ratio < 0.6 ? ratio / 0.6 : ratio > 1.6 ? Math.max(0, 1 - (ratio - 1.6) / 0.8) : 1,
    edge: run.find((s) => s.edge)?.edge ?? null,
  };
}

/** What is said, 0..1: a complete thought .30, a question answered .20, keywords .25 (3 for all), a hook .15, the length .10. */
export function wordScore(f: WordFacts): number {
  const thought = 0.12 * Number(f.startsThought) + 0.1 * Number(f.endsThought) + 0.08 * f.oneTopic;
  const hook = f.hook === 'question' ? 1 : f.hook === 'line' ? 0.7 : 0;
  return thought + 0.2 * Number(f.answered) + 0.25 * Math.min(1, f.keywords.length / 3) + 0.15 * hook + 0.1 * f.fit;
}

/** How a moment sounds: its energy against the liveliest candidate's (0..1), and whether its edges are pauses. */
export interface SoundFacts {
  lively: number;
  startsAtPause: boolean;
  endsAtPause: boolean;
}

/** How it sounds, 0..1: liveliness .8, clean edges .2. */
export const soundScore = (s: SoundFacts) => 0.8 * s.lively + 0.1 * Number(s.startsAtPause) + 0.1 * Number(s.endsAtPause);

const quotedList = (words: string[]) => {
  const q = words.slice(0, 3).map((w) => `'${w}'`);
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}` : q[0];
};

/** The sound's part of a reason: what a podcaster hears in it. */
function soundParts(s: SoundFacts | null): string[] {
  if (!s) return [];
  const parts = s.lively >= 0.9 ? ['lively delivery'] : [];
  if (s.endsAtPause) parts.push('ends on a pause');
  return parts;
}

/** A short sentence a podcaster reads: why this moment, e.g. "A question and its answer; names 'budget' and 'savings'; ends on a pause." */
export function reasonFor(f: WordFacts, sound: SoundFacts | null): string {
  const complete = f.startsThought && f.endsThought && f.oneTopic >= 0.75;
  const parts: string[] = [];
  if (f.edge === 'opening') parts.push("The episode's greeting: nothing better stood out");
  else if (f.edge === 'closing') parts.push("The episode's sign-off: nothing better stood out");
  else if (f.answered) parts.push(complete ? 'A question and its answer, complete in itself' : 'A question and its answer');
  else if (f.hook === 'question') parts.push(complete ? 'Opens with a question and rounds it off' : 'Opens with a question');
  else if (f.hook === 'line') parts.push(complete ? 'A complete thought with a strong opening' : 'A strong opening line');
  else parts.push(complete ? 'A complete thought' : 'Whole sentences');
  if (f.keywords.length) parts.push(`names ${quotedList(f.keywords)}`);
  parts.push(...soundParts(sound));
  return `${parts.join('; ')}.`;
}

/** The reason of a moment chosen without words. */
export function soundReason(s: SoundFacts, why: 'no words' | 'no sound'): string {
  if (why === 'no sound') return 'Spread through the episode: it has no sound to choose by.';
  const lively = s.lively >= 0.95 ? "the episode's liveliest stretch" : 'one of its livelier stretches';
  const edges = s.startsAtPause && s.endsAtPause ? '; starts after a pause and ends on one' : s.endsAtPause ? '; ends on a pause' : '';
  return `Chosen by sound alone (no words to read): ${lively}${edges}.`;
}
