import { describe, expect, it } from 'vitest';
import { withEpisodeLink, youtubeEpisodeDescription } from './platform-text.ts';

const notes = (chapters: { start: number; title: string }[]) => ({ summary: 'Why budgets fail.', chapters, keywords: ['budgets', 'money tips'] });

describe("the full episode's YouTube description", () => {
  it('lists the chapters as YouTube reads them, from 0:00, with hours past the hour', () => {
    expect(youtubeEpisodeDescription(notes([{ start: 12, title: 'Start' }, { start: 300, title: 'Why' }, { start: 3725, title: 'What now' }]))).toBe(
      'Why budgets fail.\n\n0:00 Intro\n0:12 Start\n5:00 Why\n1:02:05 What now\n\n#budgets #moneytips',
    );
  });

  it('leaves out chapters YouTube would refuse (fewer than 3, or closer than 10 s)', () => {
    expect(youtubeEpisodeDescription(notes([{ start: 0, title: 'A' }, { start: 60, title: 'B' }]))).toBe('Why budgets fail.\n\n#budgets #moneytips');
    expect(youtubeEpisodeDescription(notes([{ start: 0, title: 'A' }, { start: 5, title: 'B' }, { start: 60, title: 'C' }]))).toBe('Why budgets fail.\n\n#budgets #moneytips');
    expect(youtubeEpisodeDescription(null)).toBe('');
  });
});

describe("a clip's post with the full episode's link", () => {
  const video = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

  it('ends the X and LinkedIn texts with the link when it fits, X counting any link as 23 characters', () => {
    expect(withEpisodeLink('x', 'Why budgets fail #money', video)).toBe(`Why budgets fail #money\n\nFull episode: ${video}`);
    const long = `https://example.supabase.co/storage/v1/object/public/podcast-feeds/${'a'.repeat(200)}.m4a`;
    // 280 - 23 for the link - 16 for the blank line and label: 241 characters of text still fit.
    expect(withEpisodeLink('x', 'x'.repeat(241), long)).toBe(`${'x'.repeat(241)}\n\nFull episode: ${long}`);
    expect(withEpisodeLink('linkedin', 'A talk about budgets.', video)).toBe(`A talk about budgets.\n\nFull episode: ${video}`);
  });

  it('leaves a text written to the limit, or without an address yet, as it is', () => {
    expect(withEpisodeLink('x', 'x'.repeat(242), video)).toBe('x'.repeat(242));
    expect(withEpisodeLink('linkedin', 'l'.repeat(2990), video)).toBe('l'.repeat(2990));
    expect(withEpisodeLink('x', 'Why budgets fail', null)).toBe('Why budgets fail');
  });
});
