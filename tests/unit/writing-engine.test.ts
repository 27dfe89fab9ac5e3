// The writing engine against the chat sandbox (OpenAI's chat-completions shapes, answered from
// the words it is given): chapters at the transcript's sentences, quotes it says word for word,
// every platform's text within its limit, a 3-hour transcript in pieces, and the offline engine
// taking over, with the reason, when the configured one cannot answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_OPENAI_API_KEY } from '../../local/sandbox/openai/index.ts';
import { INVENTED_QUOTE } from '../../local/sandbox/openai/writer.ts';
import { PLATFORM_TEXT_LIMITS as LIMITS, xLength } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import type { EpisodeWriting } from '../../supabase/functions/_shared/domain-server/episode-writing.ts';
import type { WritingSettings } from '../../worker/config.ts';
import { CHAPTER_RULES } from '../../worker/content/chapters.ts';
import { promptBudget } from '../../worker/writing/chat/engine.ts';
import { estimateTokens } from '../../worker/writing/chat/transcript-pieces.ts';
import { writeEpisode } from '../../worker/writing/stage.ts';
import { momentRater } from '../../worker/writing/engine.ts';
import { noUsage, WritingFailure, type WritingInput } from '../../worker/writing/writing.ts';
import { startChatSandbox, type RunningChatSandbox } from '../support/chat-sandbox.ts';
import { generatedTranscript, TOPICS } from '../support/generated-transcript.ts';

let sandbox: RunningChatSandbox;
beforeAll(async () => (sandbox = await startChatSandbox()));
afterAll(() => sandbox.stop());
beforeEach(() => {
  sandbox.exchanges.length = 0;
});

const settings = (over: Partial<WritingSettings> = {}): WritingSettings => ({
  engine: 'openai',
  openai: { apiKey: SANDBOX_OPENAI_API_KEY, baseUrl: sandbox.baseUrl, model: 'gpt-4o-mini' },
  contextTokens: 16_000,
  timeoutSeconds: 10,
  parallel: 4,
  pricePerMillion: { input: 0.15, output: 0.6 },
  promptsDir: null,
  ...over,
});

function inputOf(minutes: number, clips = 3, topics = 3): WritingInput {
  const transcript = generatedTranscript(minutes, topics);
  const n = transcript.sentences.length;
  return {
    language: 'en',
    podcast: { title: 'Home and Away', description: 'A show about everyday things.', author: 'Sam Host', keywords: 'home, habits' },
    episode: { title: 'episode-12', titleConfirmed: false, guests: ['Alex Guest'] },
    transcript,
    at: 2,
    // Clips of 6 sentences spread over the episode.
    clips: Array.from({ length: clips }, (_, i) => {
      const first = Math.floor(((i + 0.5) * n) / clips);
      return { start: transcript.sentences[first].start, end: transcript.sentences[first + 5].end, sentences: { first, end: first + 6 } };
    }),
  };
}

const schemaOf = (request: unknown) => (request as { response_format: { json_schema: { name: string } } }).response_format.json_schema.name;
const userPrompt = (request: unknown) => (request as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '';

function expectWithinLimits(writing: EpisodeWriting): void {
  for (const clip of writing.clips) {
    expect(clip).not.toBeNull();
    const { title, posts } = clip as NonNullable<typeof clip>;
    expect([...title].length).toBeLessThanOrEqual(LIMITS.title);
    expect([...posts.youtube.title].length).toBeLessThanOrEqual(LIMITS.youtubeTitle);
    expect([...posts.youtube.description].length).toBeLessThanOrEqual(LIMITS.youtubeDescription);
    expect(xLength(posts.x.text)).toBeLessThanOrEqual(LIMITS.x);
    expect([...posts.linkedin.text].length).toBeLessThanOrEqual(LIMITS.linkedin);
  }
}

describe('the chat writing engine', () => {
  it('writes the episode from its words: chapters at sentence starts, quotes word for word, each platform within its limit', async () => {
    const input = inputOf(12);
    const { writing, spend, problem } = await writeEpisode(settings(), input, new AbortController().signal);
    expect(problem).toBeNull();
    expect(writing.engine).toBe('openai gpt-4o-mini');
    // Written by the engine, not extracted: the sandbox's own words.
    expect(writing.notes.summary).toMatch(/^In this episode: /);
    expect(writing.article.introduction).toMatch(/^This episode is about /);
    expect(writing.titles.length).toBeGreaterThan(0);
    const { sentences } = input.transcript;
    expect(writing.notes.chapters.length).toBeGreaterThanOrEqual(CHAPTER_RULES.minChapters);
    expect(writing.notes.chapters[0]).toMatchObject({ start: 0, time: '00:00:00', firstSentence: 0 });
    for (const [i, chapter] of writing.notes.chapters.entries()) {
      if (i > 0) expect(chapter.start).toBe(sentences[chapter.firstSentence].start + input.at);
      expect(chapter.endSentence).toBe(writing.notes.chapters[i + 1]?.firstSentence ?? sentences.length);
    }
    expect(writing.notes.quotes.length).toBeGreaterThan(0);
    for (const quote of [...writing.notes.quotes, ...writing.article.quotes]) {
      const said = sentences.find((s) => s.text === quote.text);
      expect(said, quote.text).toBeDefined();
      expect(quote.start).toBe((said?.start ?? 0) + input.at);
    }
    expectWithinLimits(writing);
    expect(writing.clips[0]?.posts.youtube.description).toContain('#Shorts');
    // The post is the episode's, under its title; the longer clip posts name the episode (a rename follows both).
    const [title] = writing.titles;
    expect(writing.article.title).toBe(title);
    for (const clip of writing.clips) {
      expect(clip?.posts.youtube.description).toContain(`From "${title}".`);
      expect(clip?.posts.linkedin.text).toContain(`From "${title}".`);
    }
    // One piece, the episode, one batch of clips; every token counted and priced.
    expect(sandbox.exchanges.map((e) => schemaOf(e.request))).toEqual(['episode_part_notes', 'episode_texts', 'clip_texts']);
    const answered = sandbox.exchanges.map((e) => (e.answer as { usage: { prompt_tokens: number; completion_tokens: number } }).usage);
    expect(spend).toMatchObject({
      engine: 'openai gpt-4o-mini', requests: 3, fellBack: false,
      promptTokens: answered.reduce((n, u) => n + u.prompt_tokens, 0),
      completionTokens: answered.reduce((n, u) => n + u.completion_tokens, 0),
    });
    expect(spend.costUsd).toBeCloseTo((spend.promptTokens * 0.15 + spend.completionTokens * 0.6) / 1e6, 12);
    // The podcast's details and the episode's guests go in.
    expect(userPrompt(sandbox.exchanges[0].request)).toContain('Sam Host');
    expect(userPrompt(sandbox.exchanges[0].request)).toContain('Alex Guest');
  });

  it('keeps nothing made up: an invented quote, a chapter at no sentence, a title that repeats itself, texts over their limits', async () => {
    sandbox.behave('unfaithful', 10);
    const input = inputOf(12);
    const { writing, problem } = await writeEpisode(settings(), input, new AbortController().signal);
    expect(problem).toBeNull();
    expect([...writing.notes.quotes, ...writing.article.quotes].map((q) => q.text)).not.toContain(INVENTED_QUOTE);
    expect(writing.notes.quotes.length).toBeGreaterThan(0);
    expect(writing.notes.chapters.every((c) => c.firstSentence < input.transcript.sentences.length)).toBe(true);
    expect(writing.titles).not.toContain('Country: Country');
    expectWithinLimits(writing);
    expect(writing.clips[0]?.title.endsWith('…')).toBe(true);
    expect(writing.clips[0]?.posts.linkedin.text).toMatch(/…\n\nFrom ".*"\.$/);
  });

  it("gives a short episode no chapters; a title the subscriber gave heads the post, the engine's headline after it", async () => {
    const input = inputOf(3, 1);
    const { writing } = await writeEpisode(settings(), { ...input, episode: { ...input.episode, title: 'Why Budgets Fail', titleConfirmed: true } }, new AbortController().signal);
    expect(writing.article.title).toBe(`Why Budgets Fail: ${writing.titles[0]}`);
    expect(writing.clips[0]?.posts.youtube.description).toContain('From "Why Budgets Fail".');
    expect(writing.notes.chapters).toEqual([]);
    expect(userPrompt(sandbox.exchanges[1].request)).toContain('too short for chapters');
  });

  it('writes a 3-hour transcript in pieces within the context, and combines them into the whole episode', async () => {
    const input = inputOf(180, 10, 6);
    const config = settings({ contextTokens: 8_000 });
    const { writing, problem } = await writeEpisode(config, input, new AbortController().signal);
    expect(problem).toBeNull();
    const pieces = sandbox.exchanges.filter((e) => schemaOf(e.request) === 'episode_part_notes');
    const expected = Math.ceil(input.transcript.sentences.reduce((n, s, i) => n + estimateTokens(`[${i} | 00:00:00] ${s.text}`) + 1, 0) / (promptBudget(8_000) - 400));
    expect(pieces.length).toBeGreaterThanOrEqual(expected);
    expect(pieces.length).toBeLessThanOrEqual(expected + 1);
    // Every request within the context; the pieces cover every sentence once, in order.
    for (const exchange of sandbox.exchanges) expect(estimateTokens(JSON.stringify((exchange.request as { messages: unknown }).messages))).toBeLessThan(promptBudget(8_000));
    const ranges = pieces.map((e) => /sentences (\d+) to (\d+)/.exec(userPrompt(e.request))?.slice(1).map(Number) ?? []).sort((a, b) => a[0] - b[0]);
    expect(ranges[0][0]).toBe(0);
    for (let i = 1; i < ranges.length; i += 1) expect(ranges[i][0]).toBe(ranges[i - 1][1] + 1);
    expect(ranges[ranges.length - 1][1]).toBe(input.transcript.sentences.length - 1);
    // One episode request over every part; the chapters and keywords span the whole episode.
    const episode = sandbox.exchanges.filter((e) => schemaOf(e.request) === 'episode_texts');
    expect(episode).toHaveLength(1);
    expect(userPrompt(episode[0].request)).toContain(`"part": ${pieces.length}`);
    const last = writing.notes.chapters[writing.notes.chapters.length - 1];
    expect(last.start).toBeGreaterThan(150 * 60);
    expect(writing.notes.chapters.length).toBeLessThanOrEqual(CHAPTER_RULES.maxChapters);
    // The first topic's words and the last's reach the episode's request and its keywords.
    const [firstTopic, lastTopic] = [TOPICS[0], TOPICS[5]];
    expect(userPrompt(episode[0].request)).toMatch(new RegExp(`(${firstTopic.join('|')})[\\s\\S]*(${lastTopic.join('|')})`));
    expect(writing.notes.keywords.some((k) => firstTopic.includes(k))).toBe(true);
    expect(writing.notes.keywords.some((k) => lastTopic.includes(k))).toBe(true);
    expect(writing.clips).toHaveLength(10);
    expectWithinLimits(writing);
  }, 60_000);

  describe('when it cannot answer', () => {
    const cases = [
      ['refusal', /declined to write \("I'm sorry, I can't help with that request\."\), twice/],
      ['invalid-json', /answered with text that is not JSON, twice/],
      ['wrong-schema', /answered outside its schema .*, twice/],
      ['error', /failed \(500 .*\), twice/],
      ['timeout', /did not answer within 1 seconds, twice/],
    ] as const;
    it.each(cases)('%s: tried once more, then the offline engine writes and says why', async (mode, reason) => {
      sandbox.behave(mode, 2);
      const input = inputOf(12);
      const { writing, spend, problem } = await writeEpisode(settings({ timeoutSeconds: 1 }), input, new AbortController().signal);
      expect(problem).toMatch(reason);
      expect(problem).toMatch(/^The writing engine \(gpt-4o-mini\) .*: the titles, show notes, blog post and clip texts were written offline from the episode's own sentences instead\.$/);
      expect(writing.engine).toBe('extractive');
      expect(writing.notes.summary).not.toMatch(/^In this episode/);
      expect(spend).toMatchObject({ engine: 'openai gpt-4o-mini', requests: 2, fellBack: true });
    });

    it('one bad answer is tried again and the second is used', async () => {
      sandbox.behave('invalid-json', 1);
      const { writing, spend, problem } = await writeEpisode(settings(), inputOf(12), new AbortController().signal);
      expect(problem).toBeNull();
      expect(writing.engine).toBe('openai gpt-4o-mini');
      expect(spend.requests).toBe(4);
    });

    it('a refused request (a wrong key) is not tried again', async () => {
      const { spend, problem } = await writeEpisode(settings({ openai: { apiKey: 'sk-wrong', baseUrl: sandbox.baseUrl, model: 'gpt-4o-mini' } }), inputOf(12), new AbortController().signal);
      expect(problem).toMatch(/^The writing engine \(gpt-4o-mini\) failed \(401 .*Incorrect API key/);
      expect(spend).toMatchObject({ requests: 1, fellBack: true });
    });
  });

  it("rates the clips' candidate moments for clip choice, in their order, each with a reason, its tokens counted", async () => {
    const input = inputOf(12);
    const usage = noUsage();
    const rate = momentRater(settings(), input, usage, new AbortController().signal);
    const moments = [
      { start: 10, end: 40, text: 'Why do tomatoes need so much water? Because their fruit is mostly water.', score: 0.4, reason: 'ours' },
      { start: 60, end: 90, text: 'Welcome back.', score: 0.2, reason: 'ours' },
    ];
    const rated = (await rate?.(moments)) ?? [];
    expect(rated.map((r) => r.score)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(rated[0].score).toBeGreaterThan(rated[1].score);
    for (const r of rated) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(r.reason).toMatch(/^Rated by the sandbox writer: .*\.$/);
    }
    expect(usage.requests).toBe(1);
    expect(usage.promptTokens).toBeGreaterThan(0);
    // A score out of range is kept in range; a rating refused twice throws (clip choice then goes by the rules).
    sandbox.behave('unfaithful', 1);
    expect((await rate?.(moments))?.map((r) => r.score)).toEqual([1, 1]);
    sandbox.behave('refusal', 2);
    await expect(rate?.(moments)).rejects.toThrow(WritingFailure);
    // The offline engine has no rating: the words and the sound decide.
    expect(momentRater(settings({ engine: 'extractive' }), input, noUsage(), new AbortController().signal)).toBeUndefined();
  });

  it("writes with an operator's own prompts", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-prompts-'));
    try {
      writeFileSync(path.join(dir, 'piece.md'), 'OUR OWN PROMPT\n{{podcast}}\n{{episode}}\n{{part}}\n{{transcript}}\n');
      await writeEpisode(settings({ promptsDir: dir }), inputOf(12), new AbortController().signal);
      expect(userPrompt(sandbox.exchanges[0].request)).toMatch(/^OUR OWN PROMPT\n/);
      expect(userPrompt(sandbox.exchanges[1].request)).not.toContain('OUR OWN PROMPT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
