import { describe, expect, it } from 'vitest';
import { formatTimeLeft, secondsLeft } from './time-left';

describe('time left per upload', () => {
  it('comes from the rate since this page started sending, once measured long enough', () => {
    const start = { at: 0, bytes: 50 };
    expect(secondsLeft(undefined, 60, 100, 5000)).toBeNull();
    expect(secondsLeft(start, 60, 100, 1000)).toBeNull();
    expect(secondsLeft(start, 50, 100, 5000)).toBeNull();
    // 10 bytes in 2 s (the 50 a resumed upload already had do not count): 40 left take 8 s.
    expect(secondsLeft(start, 60, 100, 2000)).toBe(8);
  });

  it('reads as seconds, minutes or hours', () => {
    expect(formatTimeLeft(0)).toBe('About 1 s left');
    expect(formatTimeLeft(45)).toBe('About 45 s left');
    expect(formatTimeLeft(170)).toBe('About 3 min left');
    expect(formatTimeLeft(80 * 60)).toBe('About 1 h 20 min left');
  });
});
