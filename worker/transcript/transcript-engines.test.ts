// The engines' pure parts: pocketsphinx's word times, sentences from pauses, Whisper's answers.
import { describe, expect, it } from 'vitest';
import type { TranscriptionVerbose } from 'openai/resources/audio/transcriptions';
import { parsePocketsphinxTimes } from '../../supabase/functions/_shared/domain-server/pocketsphinx-output.ts';
import { SENTENCE_MAX_WORDS, SENTENCE_PAUSE_SECONDS, sentencesFromPauses } from './sentences.ts';
import { transcriptFromWhisper, whisperPrompt } from './openai.ts';
import { transcriptionVocabulary } from '../pipeline/content-stage.ts';

describe('pocketsphinx output', () => {
  it('keeps the words with times and confidence, drops silences, fillers, utterance marks and hypothesis lines', () => {
    const out = ['welcome to the show', '<s> 0.000 0.530 0.997702', 'welcome 0.540 0.950 0.817909', '<sil> 0.960 1.200 0.99', '[NOISE] 1.2 1.3 0.5', 'the(2) 1.300 1.450 0.254143', '++UH++ 1.5 1.6 0.4', 'show 1.460 1.900 1.000100', '</s> 1.9 2.5 1.0'].join('\n');
    expect(parsePocketsphinxTimes(out)).toEqual([
      { text: 'welcome', start: 0.54, end: 0.95, confidence: 0.817909 },
      { text: 'the', start: 1.3, end: 1.45, confidence: 0.254143 },
      { text: 'show', start: 1.46, end: 1.9, confidence: 1 },
    ]);
  });
});

describe('sentences from pauses', () => {
  const word = (text: string, start: number) => ({ text, start, end: start + 0.3 });

  it('ends a sentence at a pause, capitalised and with a full stop', () => {
    const words = [word('hello', 0), word('there', 0.35), word('coffee', 0.65 + SENTENCE_PAUSE_SECONDS), word('time', 1.3 + SENTENCE_PAUSE_SECONDS)];
    expect(sentencesFromPauses(words)).toEqual([
      { text: 'Hello there.', start: 0, end: words[1].end, firstWord: 0, endWord: 2 },
      { text: 'Coffee time.', start: words[2].start, end: words[3].end, firstWord: 2, endWord: 4 },
    ]);
  });

  it('splits a long run without pauses at its widest gap, none over the maximum', () => {
    const words = Array.from({ length: 70 }, (_, i) => word(`w${i}`, i * 0.35 + (i === 40 ? 0.1 : 0)));
    const sentences = sentencesFromPauses(words);
    expect(sentences.every((s) => s.endWord - s.firstWord <= SENTENCE_MAX_WORDS)).toBe(true);
    expect(sentences.map((s) => s.firstWord)).toContain(40);
    expect(sentences.flatMap((s) => words.slice(s.firstWord, s.endWord))).toEqual(words);
  });

  it('makes nothing of no words', () => {
    expect(sentencesFromPauses([])).toEqual([]);
  });
});

describe("Whisper's verbose_json", () => {
  const answer = (words: [string, number, number][], segments: [string, number, number][]) =>
    ({ duration: 0, language: 'english', text: '', words: words.map(([word, start, end]) => ({ word, start, end })), segments: segments.map(([text, start, end], id) => ({ id, text, start, end, seek: 0, tokens: [], temperature: 0, avg_logprob: 0, compression_ratio: 1, no_speech_prob: 0 })) }) as TranscriptionVerbose;

  it('takes segments as sentences and shifts each piece by its offset', () => {
    const t = transcriptFromWhisper([
      { offset: 0, answer: answer([['Hello', 0, 0.4], ['there.', 0.5, 0.9], ['Coffee', 1.5, 1.9]], [[' Hello there.', 0, 1], [' Coffee', 1.2, 2]]) },
      { offset: 1200, answer: answer([['Tea', 0.1, 0.4]], [[' Tea.', 0, 0.5]]) },
    ]);
    expect(t.words.map((w) => [w.text, w.start])).toEqual([['Hello', 0], ['there.', 0.5], ['Coffee', 1.5], ['Tea', 1200.1]]);
    expect(t.sentences).toEqual([
      { text: 'Hello there.', start: 0, end: 0.9, firstWord: 0, endWord: 2 },
      { text: 'Coffee', start: 1.5, end: 1.9, firstWord: 2, endWord: 3 },
      { text: 'Tea.', start: 1200.1, end: 1200.4, firstWord: 3, endWord: 4 },
    ]);
  });
});

describe("Whisper's vocabulary (its prompt)", () => {
  const job = {
    podcast: { title: 'Home and Away', description: 'Not a name.', author: 'Sam Host', keywords: 'sourdough, Kyoto;  espresso ' },
    guests: ['Alex Guest'],
    title: 'episode-12',
    titleConfirmed: false,
  };

  it("holds the podcast's title, host, guests and keywords, and the episode's title once the subscriber gave it", () => {
    expect(transcriptionVocabulary(job)).toEqual(['Home and Away', 'Sam Host', 'Alex Guest', 'sourdough', 'Kyoto', 'espresso']);
    expect(transcriptionVocabulary({ ...job, title: 'Bread in Kyoto', titleConfirmed: true })).toContain('Bread in Kyoto');
    expect(whisperPrompt(transcriptionVocabulary(job))).toBe('Home and Away, Sam Host, Alex Guest, sourdough, Kyoto, espresso.');
  });

  it('is no prompt without words, and keeps within what Whisper reads', () => {
    expect(whisperPrompt([])).toBeUndefined();
    expect(whisperPrompt([' ', ''])).toBeUndefined();
    const long = whisperPrompt(Array.from({ length: 200 }, (_, i) => `Guest Number ${i}`)) ?? '';
    expect(long.length).toBeLessThanOrEqual(601);
    expect(long.startsWith('Guest Number 0, Guest Number 1,')).toBe(true);
  });
});
