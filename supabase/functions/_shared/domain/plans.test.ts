import { describe, expect, it } from 'vitest';
import { formatChangeDay, formatPrice, isPlanTier, planTitle } from './plans.ts';

describe('planTitle', () => {
  it.each([
    ['starter', 'Starter Done-For-You Service'],
    ['growth', 'Growth Done-For-You Service'],
    ['scale', 'Scale Done-For-You Service'],
    ['enterprise', 'Enterprise Plan'],
    [null, 'No Plan'],
    ['', 'No Plan'],
  ])('%s -> %s', (tier, title) => {
    expect(planTitle(tier)).toBe(title);
  });
});

describe('plan helpers', () => {
  it('knows the three tiers', () => {
    expect(['starter', 'growth', 'scale', 'enterprise', 'gold'].filter(isPlanTier)).toEqual(['starter', 'growth', 'scale']);
  });
  it('formats prices in whole dollars with separators', () => {
    expect([19900, 49900, 119900, 199900, 59900].map(formatPrice)).toEqual(['$199', '$499', '$1,199', '$1,999', '$599']);
  });
  it('names the day a scheduled change starts, in the time zone asked', () => {
    expect(formatChangeDay('2026-12-28T23:30:00Z', 'UTC')).toBe('28 December 2026');
    expect(formatChangeDay('2026-12-28T23:30:00Z', 'Asia/Tokyo')).toBe('29 December 2026');
  });
});
