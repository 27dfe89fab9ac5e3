// The offline writing engine on the tests' generated speech (the script espeak-ng reads in the
// stack's content test, tests/support/speech.ts), as a speech engine without punctuation hands it
// on: a title that never repeats itself, keywords without stop words, the script's topics, no
// chapters in an episode this short, the blog article in headed sections.
import { describe, expect, it } from 'vitest';
import { podcastLanguages } from '../../supabase/functions/_shared/domain/podcast-languages.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { blogPost } from '../../worker/content/blog-post.ts';
import { stopwordsOf } from '../../worker/content/stopwords.ts';
import { wordsIn } from '../../worker/content/words.ts';
import { extractiveEngine } from '../../worker/writing/extractive.ts';
import { repeatsItself } from '../../worker/writing/chat/faithful.ts';
import { noUsage, type WritingInput } from '../../worker/writing/writing.ts';
import { sentencesFromPauses } from '../../worker/transcript/sentences.ts';
import { SPEECH_SCRIPT, SPEECH_TOPICS } from '../support/speech.ts';

/** The script as pocketsphinx hands it on: lower-case words, 0.35 s each, a pause where a sentence ends. */
function spokenTranscript(script: string): Transcript {
  const words: Transcript['words'] = [];
  let at = 1;
  for (const sentence of script.split(/(?<=\.)\s+/)) {
    for (const word of sentence.toLowerCase().match(/[a-z']+/g) ?? []) {
      words.push({ text: word, start: at, end: at + 0.3, confidence: 0.6 });
      at += 0.35;
    }
    at += 0.6;
  }
  return { engine: 'pocketsphinx', language: 'en-US', durationSeconds: at + 1, words, sentences: sentencesFromPauses(words) };
}

const input = (titleConfirmed: boolean, title = 'speech-episode'): WritingInput => ({
  language: 'en',
  podcast: { title: null, description: null, author: null, keywords: null },
  episode: { title, titleConfirmed, guests: [] },
  transcript: spokenTranscript(SPEECH_SCRIPT),
  at: 2,
  clips: [{ start: 0, end: 15 }],
});

/** A title's words that say something (stop words such as "and" may come twice), plurals folded. */
const wordsOfTitle = (title: string) => wordsIn(title, 'en').filter((w) => !stopwordsOf('en').has(w)).map((w) => w.replace(/s$/, ''));

describe('the extractive engine on the generated speech', () => {
  it('suggests a title and writes an article title that never repeat themselves', async () => {
    const writing = await extractiveEngine.write(input(false), noUsage(), new AbortController().signal);
    const [suggestion] = writing.titles;
    expect(suggestion).toBeTruthy();
    for (const title of [suggestion, writing.article.title, blogPost(writing.article, null).title]) {
      expect(repeatsItself(title)).toBe(false);
      const words = wordsOfTitle(title);
      expect(new Set(words).size, title).toBe(words.length);
    }
    // The subscriber's own title gets the topics it does not already say.
    const given = await extractiveEngine.write(input(true, 'Coffee corner'), noUsage(), new AbortController().signal);
    expect(given.article.title.startsWith('Coffee corner: ')).toBe(true);
    expect(given.article.title.slice('Coffee corner: '.length).toLowerCase()).not.toContain('coffee');
  });

  it('names the topics in keywords without stop words, and gives this short episode no chapters', async () => {
    const { notes, article, clips } = await extractiveEngine.write(input(false), noUsage(), new AbortController().signal);
    for (const topic of SPEECH_TOPICS) expect(notes.keywords.join(' ')).toContain(topic);
    const stopwords = stopwordsOf('en');
    for (const keyword of notes.keywords) for (const word of wordsIn(keyword, 'en')) expect(stopwords.has(word), keyword).toBe(false);
    expect(notes.chapters).toEqual([]);
    expect(article.sections.length).toBeGreaterThan(1);
    expect(blogPost(article, null).markdown.match(/^## /gm)?.length).toBe(article.sections.length + (article.quotes.length ? 1 : 0));
    expect(clips[0]?.title).toBeTruthy();
  });

  it('has a stop-word list for every podcast language', () => {
    for (const { value } of podcastLanguages) expect(stopwordsOf(value).size, value).toBeGreaterThan(100);
    // Japanese and Chinese are read by ICU's word breaker: a sentence is several words.
    expect(wordsIn('私はコーヒーが好きです', 'ja').length).toBeGreaterThan(2);
    expect(wordsIn('我喜欢喝咖啡', 'zh').length).toBeGreaterThan(2);
  });
});
