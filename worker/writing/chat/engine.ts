// The chat engine: an OpenAI-compatible chat-completions API writes the episode's texts in three
// steps, each request within the configured context (WRITING_CONTEXT_TOKENS):
//   1. map: each piece of the transcript (one for most episodes, several for a long one, side by
//      side) gets its notes: a summary, where its topics start, its quotes and keywords;
//   2. reduce: the pieces' notes become the episode's titles, summary, chapters, keywords,
//      hashtags and blog article;
//   3. the clips' titles, hooks and platform posts (in batches when many clips do not fit one).
// What comes back is checked against the transcript and the limits (faithful.ts) before use.
import type { WritingSettings } from '../../config.ts';
import type { ShowNotes } from '../../../supabase/functions/_shared/domain/episode-content.ts';
import type { EpisodeWriting } from '../../../supabase/functions/_shared/domain-server/episode-writing.ts';
import { chapterRoom, chapterStarts, chaptersAt, CHAPTER_RULES, spreadOut } from '../../content/chapters.ts';
import { clockTime } from '../../content/caption-files.ts';
import { clipSentenceRange, titleOf, type WritingEngine, type WritingInput, type WritingUsage } from '../writing.ts';
import { ANSWER_NAMES, clipsAnswer, episodeAnswer, pieceAnswer, type EpisodeAnswer, type PieceAnswer } from './answers.ts';
import { chatClient, type Ask } from './client.ts';
import { clipTexts, limitMarks } from './clip-posts.ts';
import { promptContext, type PromptContext } from './context.ts';
import { cleanHashtags, cleanKeywords, faithfulQuotes, line, repeatsItself } from './faithful.ts';
import { fill, loadPrompts, type Prompts } from './prompts.ts';
import { estimateTokens, transcriptPieces, type TranscriptPiece } from './transcript-pieces.ts';
import { inTurns } from '../../in-turns.ts';

const QUOTES = 3;
/** Characters of an episode title suggestion (YouTube's title limit, for the full episode). */
const TITLE_LENGTH = 100;
/** The subscriber's editors' limits: a summary of 5,000 characters, titles and headings of 200. */
const SUMMARY_LENGTH = 5000;
const HEADING_LENGTH = 200;

/** Tokens a request may send: the context less room for the answer (a quarter of it, at most 4,000). */
export const promptBudget = (contextTokens: number) => contextTokens - Math.min(4000, Math.floor(contextTokens / 4));

interface Step {
  settings: WritingSettings;
  ask: Ask;
  prompts: Prompts;
  context: PromptContext;
  system: string;
  input: WritingInput;
  usage: WritingUsage;
  signal: AbortSignal;
}

/** The map step: each piece's notes, its chapters and quotes kept only where they fall in it. */
async function pieceNotes(step: Step): Promise<{ piece: TranscriptPiece; notes: PieceAnswer }[]> {
  const { prompts, context, system, input, settings } = step;
  const overhead = estimateTokens(system) + estimateTokens(fill(prompts.piece, { ...context, part: 'part 10 of 10 (sentences 100000 to 100000)', transcript: '' }));
  const pieces = transcriptPieces(input.transcript, promptBudget(settings.contextTokens) - overhead);
  return inTurns(pieces, settings.parallel, async (piece, i) => {
    const part = pieces.length === 1 ? 'the whole' : `part ${i + 1} of ${pieces.length} (sentences ${piece.first} to ${piece.end - 1})`;
    const notes = await step.ask(
      { name: ANSWER_NAMES.piece, schema: pieceAnswer, system, user: fill(prompts.piece, { ...context, part, transcript: piece.lines }), check: (a) => (a.summary.trim() ? null : 'no summary') },
      step.usage,
      step.signal,
    );
    const inside = (sentence: number) => sentence >= piece.first && sentence < piece.end;
    return { piece, notes: { ...notes, chapters: notes.chapters.filter((c) => inside(c.sentence)), quotes: notes.quotes.filter((q) => inside(q.sentence)) } };
  });
}

/** The pieces' notes as the reduce step reads them, each summary cut so the request fits its budget. */
function partsJson(step: Step, parts: { piece: TranscriptPiece; notes: PieceAnswer }[], chapters: string): string {
  const sentences = step.input.transcript.sentences;
  const shown = (summaryTokens: number) =>
    JSON.stringify(
      parts.map(({ piece, notes }, i) => ({
        part: i + 1,
        sentences: `${piece.first}-${piece.end - 1}`,
        summary: [...notes.summary].slice(0, summaryTokens * 4).join(''),
        chapters: notes.chapters.map((c) => ({ sentence: c.sentence, time: clockTime(sentences[c.sentence].start), title: c.title })),
        quotes: notes.quotes.map((q) => q.text),
        keywords: notes.keywords,
      })),
      null,
      1,
    );
  const budget = promptBudget(step.settings.contextTokens) - estimateTokens(step.system) - estimateTokens(fill(step.prompts.episode, { ...step.context, parts: '', chapters }));
  let summaryTokens = 400;
  let json = shown(summaryTokens);
  while (estimateTokens(json) > budget && summaryTokens > 20) json = shown((summaryTokens = Math.floor(summaryTokens * 0.7)));
  return json;
}

/** The reduce step's instruction on chapters: how many, or none for an episode too short for them. */
function chapterInstruction(durationSeconds: number): string {
  const room = chapterRoom(durationSeconds);
  return room >= CHAPTER_RULES.minChapters
    ? `choose ${CHAPTER_RULES.minChapters} to ${room} chapters among the parts' chapters (by sentence number, the first at sentence 0, each at least ${CHAPTER_RULES.minChapterSeconds} seconds long), each with a title of at most 8 words.`
    : 'none: the episode is too short for chapters (an empty list).';
}

async function episodeTexts(step: Step, parts: { piece: TranscriptPiece; notes: PieceAnswer }[]): Promise<EpisodeAnswer> {
  const chapters = chapterInstruction(step.input.transcript.durationSeconds);
  const user = fill(step.prompts.episode, { ...step.context, parts: partsJson(step, parts, chapters), chapters });
  const check = (a: EpisodeAnswer) =>
    !a.summary.trim() ? 'no summary' : !a.article.title.trim() || !a.article.sections.some((s) => s.paragraphs.some((p) => p.trim())) ? 'no article' : null;
  return step.ask({ name: ANSWER_NAMES.episode, schema: episodeAnswer, system: step.system, user, check }, step.usage, step.signal);
}

/** The show notes and the article from the reduce step's answer, checked against the transcript. */
function episodeWriting(input: WritingInput, parts: { notes: PieceAnswer }[], answer: EpisodeAnswer) {
  const { transcript, at } = input;
  const titles = [...new Set(answer.titles.map((t) => line(t, TITLE_LENGTH)).filter((t) => t && !repeatsItself(t)))];
  const keywords = cleanKeywords([...answer.keywords, ...parts.flatMap((p) => p.notes.keywords)], input.language).slice(0, 10);
  // The chapters the reduce step chose; the pieces' own when it chose too few. More than the
  // episode may have are spread over it, then the rules keep what fits.
  const { sentences, durationSeconds } = transcript;
  const chosen = answer.chapters.filter((c) => c.sentence >= 0 && c.sentence < sentences.length);
  const proposed = chosen.length >= CHAPTER_RULES.minChapters ? chosen : parts.flatMap((p) => p.notes.chapters);
  const sentencesOf = (list: typeof proposed) => [...list.map((c) => c.sentence)].sort((a, b) => a - b);
  const starts = chapterStarts(spreadOut(sentencesOf(proposed), sentences, durationSeconds), sentences, durationSeconds);
  const titleAt = (sentence: number) => line(proposed.find((c) => c.sentence === sentence && c.title.trim())?.title ?? '', HEADING_LENGTH) || `Part ${starts.indexOf(sentence) + 1}`;
  const pieceQuotes = parts.flatMap((p) => p.notes.quotes.map((q) => q.text));
  const articleQuotes = faithfulQuotes(answer.article.quotes, transcript, at, QUOTES);
  const notes: ShowNotes = {
    summary: line(answer.summary, SUMMARY_LENGTH),
    chapters: chaptersAt(starts, starts.map(titleAt), sentences, at),
    quotes: faithfulQuotes([...answer.article.quotes, ...pieceQuotes], transcript, at, QUOTES),
    keywords,
  };
  const article = {
    title: line(answer.article.title, HEADING_LENGTH),
    introduction: answer.article.introduction.trim(),
    sections: answer.article.sections
      .map((s) => ({ heading: line(s.heading, HEADING_LENGTH), paragraphs: s.paragraphs.map((p) => p.trim()).filter(Boolean) }))
      .filter((s) => s.heading && s.paragraphs.length),
    quotes: articleQuotes.length ? articleQuotes : notes.quotes.slice(0, 2),
  };
  return { titles, notes, article, hashtags: cleanHashtags(answer.hashtags, keywords) };
}

/** Step 3: each clip's texts, in batches that fit the budget; a clip without words has none (null). */
async function clipsWriting(step: Step, episodeTitle: string, hashtags: string[], keywords: string[]) {
  const { transcript } = step.input;
  const said = step.input.clips.map((clip) => {
    const { first, end } = clipSentenceRange(transcript, clip);
    return transcript.sentences.slice(first, end).map((s) => s.text);
  });
  const values = { ...step.context, ...limitMarks, title: episodeTitle, hashtags: hashtags.join(' ') };
  const budget = promptBudget(step.settings.contextTokens) - estimateTokens(step.system) - estimateTokens(fill(step.prompts.clips, { ...values, clips: '' }));
  const shown = step.input.clips.map((clip, i) => ({ clip: i + 1, from: clockTime(clip.start), to: clockTime(clip.end), said: said[i].join(' ') })).filter((c) => c.said);
  const batches: (typeof shown)[] = [];
  for (const clip of shown) {
    const last = batches[batches.length - 1];
    if (last && estimateTokens(JSON.stringify([...last, clip], null, 1)) <= budget) last.push(clip);
    else batches.push([clip]);
  }
  const answers = await inTurns(batches, step.settings.parallel, (batch) =>
    step.ask(
      { name: ANSWER_NAMES.clips, schema: clipsAnswer, system: step.system, user: fill(step.prompts.clips, { ...values, clips: JSON.stringify(batch, null, 1) }), check: (a) => (a.clips.length ? null : 'no clips') },
      step.usage,
      step.signal,
    ),
  );
  const byClip = new Map(answers.flatMap((a) => a.clips).map((c) => [c.clip, c]));
  return said.map((words, i) => (words.length ? clipTexts(byClip.get(i + 1), { said: words, episodeTitle, hashtags, keywords }) : null));
}

/**
 * The blog post's title: the episode's, and the engine's headline after it when that says more
 * ("Why Budgets Fail: Saving first keeps the plan"). The post is the episode's under its title,
 * as the offline engine's is: a renamed episode's post follows its new title (private.rename_episode).
 */
function postTitle(episodeTitle: string, headline: string): string {
  const both = `${episodeTitle}: ${headline}`;
  const says = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (!headline || says(episodeTitle).includes(says(headline)) || says(headline).includes(says(episodeTitle)) || repeatsItself(both)) return episodeTitle;
  return line(both, HEADING_LENGTH);
}

export function chatEngine(settings: WritingSettings, ask: Ask = chatClient(settings)): WritingEngine {
  const name = `openai ${settings.openai.model}`;
  return {
    name,
    async write(input, usage, signal): Promise<EpisodeWriting> {
      const prompts = loadPrompts(settings.promptsDir);
      const context = promptContext(input);
      const step: Step = { settings, ask, prompts, context, system: fill(prompts.system, { language: context.language }), input, usage, signal };
      const parts = await pieceNotes(step);
      const written = episodeWriting(input, parts, await episodeTexts(step, parts));
      const title = titleOf(input.episode, written.titles);
      const clips = await clipsWriting(step, title, written.hashtags, written.notes.keywords);
      const article = { ...written.article, title: postTitle(title, written.article.title) };
      return { engine: name, titles: written.titles, notes: written.notes, article, clips };
    },
  };
}
