import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time';

describe('timeAgo', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it('names the largest whole unit', () => {
    expect(timeAgo(new Date('2026-11-26T11:59:30Z'), now)).toBe('just now');
    expect(timeAgo(new Date('2026-11-26T11:59:00Z'), now)).toBe('1 minute ago');
    expect(timeAgo(new Date('2026-11-26T09:00:00Z'), now)).toBe('3 hours ago');
    expect(timeAgo(new Date('2026-11-24T12:00:00Z'), now)).toBe('2 days ago');
    expect(timeAgo(new Date('2025-10-01T12:00:00Z'), now)).toBe('1 year ago');
  });
  it('treats a future time (clock skew) as just now', () => {
    expect(timeAgo(new Date('2026-11-26T12:05:00Z'), now)).toBe('just now');
  });
});
