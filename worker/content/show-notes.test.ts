// Show notes and the blog article from a transcript with three topics, as the offline engine writes them.
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../supabase/functions/_shared/domain/markdown.ts';
import { sentenceText } from '../transcript/sentences.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { articleTitle, blogPost, extractiveArticle } from './blog-post.ts';
import { CHAPTER_RULES } from './chapters.ts';
import { extractiveNotes, showNotes, showNotesMarkdown, transcriptKeywords } from './show-notes.ts';
import { stopwordsOf } from './stopwords.ts';

const script = [
  'my garden is full of tomatoes this summer',
  'tomatoes need water and sun in the garden',
  'i water the garden and the tomatoes every morning',
  'the garden gives me fresh tomatoes',
  'next we talk about coffee and fresh beans',
  'i grind coffee beans for a strong cup of coffee',
  'good coffee needs fresh beans and hot water',
  'a cup of coffee with beans from the market',
  'last the city library has a new building',
  'the library lends books and the library has computers',
  'i read books at the library every week',
  'the library is free and the books are good',
];

/** Each sentence `seconds` long, words evenly spread, each heard with `confidence(sentence)`. */
function transcriptOf(sentences: string[], seconds = 10, confidence: (i: number) => number = () => 0.9): Transcript {
  const t: Transcript = { engine: 'test', language: 'en-US', durationSeconds: sentences.length * seconds, words: [], sentences: [] };
  sentences.forEach((s, i) => {
    const own = s.split(' ').map((text, j) => ({ text, start: i * seconds + j * 0.5, end: i * seconds + j * 0.5 + 0.4, confidence: confidence(i) }));
    t.sentences.push({ text: sentenceText(own), start: own[0].start, end: own[own.length - 1].end, firstWord: t.words.length, endWord: t.words.length + own.length });
    t.words.push(...own);
  });
  return t;
}

describe('show notes', () => {
  const long = transcriptOf(script, 30);
  const notes = showNotes(long, 2);

  it('names the topics as keywords, none of them a stop word', () => {
    expect(notes.keywords.slice(0, 4)).toEqual(expect.arrayContaining(['library', 'coffee']));
    expect(notes.keywords.join(' ')).toMatch(/garden|tomatoes/);
    for (const keyword of notes.keywords) expect(keyword.split(' ').every((w) => !stopwordsOf('en').has(w))).toBe(true);
    // The clips' keywords, read before the notes are written, are the notes' own.
    expect(transcriptKeywords(long)).toEqual(notes.keywords);
  });

  it('starts a chapter where the topic changes in a long enough episode, titled by its own words, at hh:mm:ss', () => {
    expect(long.durationSeconds).toBeGreaterThanOrEqual(CHAPTER_RULES.minEpisodeSeconds);
    const at = new Map(notes.chapters.map((c) => [c.firstSentence, c]));
    expect(at.get(0)?.time).toBe('00:00:00');
    expect(at.get(4)?.time).toBe('00:02:02');
    expect(at.get(8)?.time).toBe('00:04:02');
    expect(at.get(4)?.title.toLowerCase()).toContain('coffee');
    expect(at.get(8)?.title.toLowerCase()).toContain('library');
    // Each at a sentence's start, none shorter than the rules allow.
    for (const [i, chapter] of notes.chapters.entries()) {
      if (i > 0) expect(chapter.start).toBe(long.sentences[chapter.firstSentence].start + 2);
      const end = notes.chapters[i + 1]?.start ?? long.durationSeconds + 2;
      expect(end - chapter.start).toBeGreaterThanOrEqual(CHAPTER_RULES.minChapterSeconds);
    }
  });

  it('gives a short episode no chapters, but its article still has a section per topic', () => {
    const short = transcriptOf(script);
    const { notes: shortNotes, sections } = extractiveNotes(short);
    expect(shortNotes.chapters).toEqual([]);
    expect(sections.map((s) => s.firstSentence)).toEqual([0, 4, 8]);
  });

  it('summarises and quotes whole sentences of the episode, with their times', () => {
    expect(notes.summary.split('. ').length).toBe(3);
    for (const quote of notes.quotes) {
      expect(script.map((s) => sentenceText([{ text: s, start: 0, end: 0 }]))).toContain(quote.text);
      expect(quote.time).toMatch(/^\d\d:\d\d:\d\d$/);
    }
  });

  it('summarises from the sentences the speech engine was surest of', () => {
    const sure = showNotes(transcriptOf(script, 10, () => 0.9));
    const chosen = script.findIndex((s) => sure.summary.includes(sentenceText([{ text: s, start: 0, end: 0 }])));
    // The same words, the most central sentence now misheard: another takes its place.
    const unsure = showNotes(transcriptOf(script, 10, (i) => (i === chosen ? 0.2 : 0.9)));
    expect(unsure.summary).not.toContain(sentenceText([{ text: script[chosen], start: 0, end: 0 }]));
    expect(unsure.summary.split('. ').length).toBe(3);
  });

  it('makes nothing up from nothing', () => {
    expect(showNotes(transcriptOf([]))).toEqual({ summary: '', chapters: [], quotes: [], keywords: [] });
  });

  it('read as Markdown', () => {
    const md = showNotesMarkdown('Test Show', notes);
    expect(md).toContain('# Test Show\n\n## Summary');
    expect(md).toContain(`- 00:00:00 ${notes.chapters[0].title}`);
  });
});

describe('blog article', () => {
  const transcript = transcriptOf(script);
  const { notes, sections } = extractiveNotes(transcript);
  const post = blogPost(extractiveArticle({ episodeTitle: 'Show <12>', titleGiven: true, notes, sections, transcript }), 'https://drive.example/file?id=1&x=2');

  it('has a title, an introduction, a headed section per topic, quotes and the episode link', () => {
    expect(post.title.startsWith('Show <12>: ')).toBe(true);
    // WordPress takes the title as the post's own: the body starts after it.
    const html = markdownToHtml(post.markdown.replace(/^#\s+.*\n+/, ''));
    expect(html.match(/<h2>/g)).toHaveLength(sections.length + 1);
    expect(html).toContain(`<p>${notes.summary}</p>`);
    expect(html).toContain('<blockquote>');
    expect(html).toContain('<a href="https://drive.example/file?id=1&amp;x=2">Watch the full episode</a>');
    expect(post.markdown).toContain('# Show \\<12\\>');
    expect(post.markdown).toContain('[Watch the full episode](https://drive.example/file?id=1&x=2)');
  });

  it('never repeats its title: topics the episode title already says are left out', () => {
    expect(articleTitle('Country', ['country'])).toBe('Country');
    expect(articleTitle('Microphone, Sounds and Dynamic', ['microphone', 'sound', 'dynamic'])).toBe('Microphone, Sounds and Dynamic');
    expect(articleTitle('Coffee talk', ['coffee', 'library'])).toBe('Coffee talk: Library');
  });
});
