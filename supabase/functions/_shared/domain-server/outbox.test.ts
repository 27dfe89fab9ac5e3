import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_ATTEMPTS, retryDelaySeconds, shouldGiveUp } from './outbox';

describe('outbox retries', () => {
  it('doubles the wait after each failure, up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n))).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(20)).toBe(3600);
  });
  it('gives up only at the last attempt', () => {
    expect(shouldGiveUp(MAX_DELIVERY_ATTEMPTS - 1)).toBe(false);
    expect(shouldGiveUp(MAX_DELIVERY_ATTEMPTS)).toBe(true);
  });
});
