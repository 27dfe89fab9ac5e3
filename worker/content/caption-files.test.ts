// Caption and transcript files: cue grouping, times relative to each file, SRT/WebVTT syntax.
import { describe, expect, it } from 'vitest';
import { captionCues, clockTime, CUE_MAX_CHARS, cueTime, plainTranscript, toSrt, toWebVtt, transcriptSlice } from './caption-files.ts';
import { sentencesFromPauses } from '../transcript/sentences.ts';

const words = ['today', 'we', 'talk', 'about', 'growing', 'tomatoes', 'in', 'a', 'small', 'garden', 'then', 'coffee'].map((text, i) => ({
  text,
  start: i * 0.5 + (i >= 10 ? 1 : 0),
  end: i * 0.5 + 0.4 + (i >= 10 ? 1 : 0),
}));
const transcript = { words, sentences: sentencesFromPauses(words), durationSeconds: 8 };

describe('caption cues', () => {
  it('group a few words, never across a sentence, none longer than a line', () => {
    const cues = captionCues(transcript);
    expect(cues.map((c) => c.text).join(' ')).toBe(words.map((w) => w.text).join(' '));
    expect(cues.every((c) => c.text.length <= CUE_MAX_CHARS)).toBe(true);
    expect(cues[cues.length - 1]).toEqual({ start: 6, end: 6.9, text: 'then coffee' });
  });

  it('format as SRT and WebVTT with their own time syntax', () => {
    const cues = [{ start: 3661.5, end: 3662.25, text: 'a --> b' }, { start: 4, end: 4, text: 'line' }];
    expect(toSrt(cues)).toBe('1\n01:01:01,500 --> 01:01:02,250\na -> b\n\n2\n00:00:04,000 --> 00:00:04,100\nline\n');
    expect(toWebVtt(cues)).toBe('WEBVTT\n\n01:01:01.500 --> 01:01:02.250\na -> b\n\n00:00:04.000 --> 00:00:04.100\nline\n');
    expect(cueTime(0.0004, ',')).toBe('00:00:00,000');
    expect(clockTime(3725.9)).toBe('01:02:05');
  });
});

describe('a clip\'s part of the transcript', () => {
  it('keeps the words that start inside the moment, moved to start after the clip intro', () => {
    const part = transcriptSlice(transcript, 2, 4.2, 1);
    expect(part.words.map((w) => w.text)).toEqual(['growing', 'tomatoes', 'in', 'a', 'small']);
    expect(part.words[0]).toMatchObject({ start: 1, end: 1.4 });
    // "small" ends past the moment: cut where the moment ends.
    expect(part.words[4].end).toBeCloseTo(3.2);
    expect(part.sentences).toEqual([{ text: 'growing tomatoes in a small', start: 1, end: part.words[4].end, firstWord: 0, endWord: 5 }]);
  });

  it('is empty past the last word', () => {
    expect(transcriptSlice(transcript, 20, 30)).toEqual({ words: [], sentences: [] });
  });
});

describe('plain transcript', () => {
  it('has one timed paragraph per sentence, shifted by the intro', () => {
    expect(plainTranscript(transcript, 2)).toBe('[00:00:02] Today we talk about growing tomatoes in a small garden.\n\n[00:00:08] Then coffee.\n');
  });
});
