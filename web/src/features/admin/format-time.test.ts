import { describe, expect, it } from 'vitest';
import { formatTime } from './format-time';

describe('the console time', () => {
  it.each(['2026-01-02T03:04:05Z', '2025-12-31T23:59:59.999Z', '2026-07-14T12:00:00+02:00'])(
    'reads as toLocaleString("en-US") does for %s',
    (iso) => {
      expect(formatTime(iso)).toBe(new Date(iso).toLocaleString('en-US'));
    },
  );
});
