import { describe, expect, it } from 'vitest';
import { eventCreatedTime, ImpossibleStripeTime, stripeTime } from './stripe-time.ts';

const now = Date.UTC(2026, 10, 28, 12, 0, 0);

describe('stripeTime', () => {
  it('turns Unix seconds into an ISO timestamp', () => {
    expect(stripeTime('current_period_end', 1_796_000_000)).toBe('2026-11-30T00:53:20.000Z');
  });

  it.each([
    ['far past JavaScript dates', 1e15],
    ['before Stripe existed', 86_400],
    ['after 2100', Date.UTC(2100, 0, 2) / 1000],
    ['a fraction', 1_796_000_000.5],
    ['negative', -1],
    ['not a number', '1796000000'],
    ['null', null],
    ['NaN', Number.NaN],
  ])('refuses %s, naming the field', (_what, value) => {
    expect(() => stripeTime('current_period_end', value)).toThrow(ImpossibleStripeTime);
    expect(() => stripeTime('current_period_end', value)).toThrow(/^current_period_end is not a possible date/);
  });
});

describe('eventCreatedTime', () => {
  it('accepts now and a little drift ahead', () => {
    expect(eventCreatedTime(now / 1000, now)).toBe('2026-11-28T12:00:00.000Z');
    expect(eventCreatedTime(now / 1000 + 3600, now)).toBe('2026-11-28T13:00:00.000Z');
  });

  it('refuses an event from days ahead', () => {
    expect(() => eventCreatedTime(now / 1000 + 3 * 86_400, now)).toThrow('created is not a possible date (1796126400)');
  });
});
