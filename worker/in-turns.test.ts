import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurns } from './in-turns.ts';

// Timers of the test's own clock: the items finish in another order than they start.
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
afterEach(() => vi.useRealTimers());

describe('inTurns', () => {
  it('answers in the items\' order with at most atOnce running', async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    const run = inTurns([30, 5, 20, 1, 10], 2, async (ms, i) => {
      running += 1;
      most = Math.max(most, running);
      await tick(ms);
      running -= 1;
      return `${i}:${ms}`;
    });
    await vi.runAllTimersAsync();
    const answers = await run;
    expect(answers).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10']);
    expect(most).toBe(2);
  });

  it('starts no more items once one fails, and fails with its error', async () => {
    const started: number[] = [];
    const run = inTurns([1, 2, 3, 4, 5], 1, async (item) => {
      started.push(item);
      if (item === 2) throw new Error('piece 2 failed');
      return item;
    });
    await expect(run).rejects.toThrow('piece 2 failed');
    expect(started).toEqual([1, 2]);
  });
});
