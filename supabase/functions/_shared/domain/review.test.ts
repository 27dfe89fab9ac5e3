import { describe, expect, it } from 'vitest';
import { formatInZone, zoneOffsetMinutes } from './review.ts';

describe('times in the podcast\'s zone', () => {
  it('reads the profile zones', () => {
    expect(zoneOffsetMinutes('UTC+05:30')).toBe(330);
    expect(zoneOffsetMinutes('UTC-00:30')).toBe(-30);
    expect(zoneOffsetMinutes(null)).toBeNull();
    expect(zoneOffsetMinutes('Europe/Paris')).toBeNull();
  });

  it('shows 09:00 UTC as 10:00 at UTC+01:00 and the day before at UTC-12:00', () => {
    expect(formatInZone('2026-12-01T09:00:00Z', 'UTC+01:00')).toBe('Dec 1, 2026, 10:00 AM (UTC+01:00)');
    expect(formatInZone('2026-12-01T09:00:00Z', 'UTC-12:00')).toBe('Nov 30, 2026, 9:00 PM (UTC-12:00)');
    expect(formatInZone('2026-12-01T09:00:00Z', null)).toBe('Dec 1, 2026, 9:00 AM (UTC)');
  });
});
