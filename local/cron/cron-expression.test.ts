import { describe, expect, it } from 'vitest';
import { firesAt, parseSchedule, type Schedule } from './cron-expression.ts';

const cron = (text: string) => parseSchedule(text) as Schedule & { kind: 'cron' };
const at = (iso: string) => new Date(iso);

describe('cron expressions', () => {
  it('every minute', () => {
    expect(firesAt(cron('* * * * *'), at('2026-11-26T10:41:00Z'))).toBe(true);
  });
  it('daily at 03:17 UTC', () => {
    const daily = cron('17 3 * * *');
    expect(firesAt(daily, at('2026-11-26T03:17:00Z'))).toBe(true);
    expect(firesAt(daily, at('2026-11-26T03:18:00Z'))).toBe(false);
    expect(firesAt(daily, at('2026-11-26T04:17:00Z'))).toBe(false);
  });
  it('steps, ranges and lists', () => {
    const s = cron('*/15 9-17 * * 1-5');
    expect(firesAt(s, at('2026-11-26T09:45:00Z'))).toBe(true); // Thursday
    expect(firesAt(s, at('2026-11-26T09:46:00Z'))).toBe(false);
    expect(firesAt(s, at('2026-11-29T09:45:00Z'))).toBe(false); // Sunday
    expect(firesAt(cron('0 0 1,15 * *'), at('2026-11-15T00:00:00Z'))).toBe(true);
  });
  it('Sunday is 0 or 7; both day fields restricted means either', () => {
    expect(firesAt(cron('0 12 * * 7'), at('2026-11-29T12:00:00Z'))).toBe(true);
    expect(firesAt(cron('0 12 1 * 0'), at('2026-11-29T12:00:00Z'))).toBe(true);
    expect(firesAt(cron('0 12 1 * 0'), at('2026-12-01T12:00:00Z'))).toBe(true);
    expect(firesAt(cron('0 12 1 * 0'), at('2026-12-02T12:00:00Z'))).toBe(false);
  });
  it('seconds intervals and bad input', () => {
    expect(parseSchedule('30 seconds')).toEqual({ kind: 'seconds', every: 30 });
    for (const bad of ['60 * * * *', '* * *', 'every day', '0 seconds', '5-1 * * * *']) expect(() => parseSchedule(bad)).toThrow();
  });
});
