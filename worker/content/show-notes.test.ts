// Show notes and the blog post from a transcript with three topics.
import { describe, expect, it } from 'vitest';
import { sentenceText } from '../transcript/sentences.ts';
import type { Transcript } from '../../supabase/functions/_shared/domain/transcript.ts';
import { blogPost } from './blog-post.ts';
import { showNotes, showNotesMarkdown, transcriptKeywords } from './show-notes.ts';

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

/** Each sentence 10 s long, words evenly spread. */
function transcriptOf(sentences: string[]): Transcript {
  const t: Transcript = { engine: 'test', language: 'en-US', durationSeconds: sentences.length * 10, words: [], sentences: [] };
  sentences.forEach((s, i) => {
    const own = s.split(' ').map((text, j) => ({ text, start: i * 10 + j * 0.5, end: i * 10 + j * 0.5 + 0.4 }));
    t.sentences.push({ text: sentenceText(own), start: own[0].start, end: own[own.length - 1].end, firstWord: t.words.length, endWord: t.words.length + own.length });
    t.words.push(...own);
  });
  return t;
}

describe('show notes', () => {
  const notes = showNotes(transcriptOf(script), 2);

  it('names the topics as keywords', () => {
    expect(notes.keywords.slice(0, 4)).toEqual(expect.arrayContaining(['library', 'coffee']));
    expect(notes.keywords.join(' ')).toMatch(/garden|tomatoes/);
    expect(notes.keywords).not.toContain('the');
    // The clips' keywords, read before the notes are written, are the notes' own.
    expect(transcriptKeywords(transcriptOf(script))).toEqual(notes.keywords);
  });

  it('starts a chapter where the topic changes, titled by its own words, at hh:mm:ss', () => {
    expect(notes.chapters.map((c) => [c.time, c.firstSentence])).toEqual([
      ['00:00:00', 0],
      ['00:00:42', 4],
      ['00:01:22', 8],
    ]);
    expect(notes.chapters[1].title.toLowerCase()).toContain('coffee');
    expect(notes.chapters[2].title.toLowerCase()).toContain('library');
  });

  it('summarises and quotes whole sentences of the episode, with their times', () => {
    expect(notes.summary.split('. ').length).toBe(3);
    for (const quote of notes.quotes) {
      expect(script.map((s) => sentenceText([{ text: s, start: 0, end: 0 }]))).toContain(quote.text);
      expect(quote.time).toMatch(/^\d\d:\d\d:\d\d$/);
    }
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

describe('blog post', () => {
  const transcript = transcriptOf(script);
  const notes = showNotes(transcript);
  const post = blogPost({ episodeTitle: 'Show <12>', notes, transcript, link: 'https://drive.example/file?id=1&x=2' });

  it('has a title, an introduction, a section per chapter, quotes and the episode link', () => {
    expect(post.title.startsWith('Show <12>: ')).toBe(true);
    expect(post.html.match(/<h2>/g)).toHaveLength(notes.chapters.length + 1);
    expect(post.html).toContain(`<p>${notes.summary}</p>`);
    expect(post.html).toContain('<blockquote>');
    expect(post.html).toContain('<a href="https://drive.example/file?id=1&amp;x=2">Watch the full episode</a>');
    expect(post.markdown).toContain('# Show \\<12\\>');
    expect(post.markdown).toContain('[Watch the full episode](https://drive.example/file?id=1&x=2)');
  });
});
