import { describe, expect, it } from 'vitest';
import { PLATFORM_TEXT_LIMITS as LIMITS, xLength } from '../../supabase/functions/_shared/domain/episode-clips.ts';
import { clipCopy, episodeTitleFromWords, fit, hashtag, localKeywords } from './clip-copy.ts';

const said = [
  'welcome back to the show',
  'why do household budgets fail so often',
  'budgets fail because savings come last',
  'pay your savings first and the budget holds',
];

describe('clip copy', () => {
  it('names the clip from its own words: the question, cut at a word', () => {
    const copy = clipCopy(said, ['budgets', 'savings', 'credit cards'], 'Money Talk') as NonNullable<ReturnType<typeof clipCopy>>;
    expect(copy.title).toBe('Why do household budgets fail so often?');
    expect(copy.posts.x.text).toBe(
      '“Welcome back to the show. Why do household budgets fail so often? Budgets fail because savings come last. Pay your savings first and the budget holds.”\n\n#Budgets #Savings #CreditCards',
    );
    expect(copy.posts.linkedin.text).toContain('From "Money Talk".');
    expect(copy.posts.youtube.description).toMatch(/#Budgets #Savings #CreditCards #Shorts$/);
    expect(copy.posts.wordpress.content).toContain('<blockquote class="wp-block-quote"><p>Welcome back');
    expect(clipCopy([], ['x'], 'Money Talk')).toBeNull();
  });

  it('keeps every platform within its limit, long clips and wide characters included', () => {
    const long = Array.from({ length: 80 }, (_, i) => `sentence ${i} talks about savings and budgets at some length`);
    const wide = Array.from({ length: 40 }, () => '家計の予算はなぜ失敗するのか');
    for (const sentences of [long, wide]) {
      const copy = clipCopy(sentences, ['budgets', 'savings'], 'A'.repeat(500)) as NonNullable<ReturnType<typeof clipCopy>>;
      expect(xLength(copy.posts.x.text)).toBeLessThanOrEqual(LIMITS.x);
      expect([...copy.posts.youtube.title].length).toBeLessThanOrEqual(LIMITS.youtubeTitle);
      expect([...copy.posts.youtube.description].length).toBeLessThanOrEqual(LIMITS.youtubeDescription);
      expect([...copy.posts.linkedin.text].length).toBeLessThanOrEqual(LIMITS.linkedin);
      expect([...copy.title].length).toBeLessThanOrEqual(LIMITS.title);
    }
    expect(xLength('家a')).toBe(3);
  });

  it('cuts at a word with an ellipsis, and makes hashtags of letters and digits', () => {
    expect(fit('one two three four', 12)).toBe('one two…');
    expect(fit('short', 12)).toBe('short');
    expect(hashtag("credit-card debt's")).toBe('#CreditCardDebtS');
    expect(hashtag('--')).toBe('');
  });

  it('finds the episode\'s keywords in its words when none are given, and a title from them', () => {
    const keywords = localKeywords([...said, 'savings and budgets again', 'the budget talk']);
    expect(keywords.slice(0, 2)).toEqual(['budgets', 'savings']);
    expect(keywords).not.toContain('because');
    expect(episodeTitleFromWords(['budgets', 'savings', 'budget'])).toBe('Budgets, Savings and Budget');
    expect(episodeTitleFromWords([])).toBeNull();
  });
});
