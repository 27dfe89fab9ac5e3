import { describe, expect, it } from 'vitest';
import { youtubeEpisodeDescription } from './platform-text.ts';

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
