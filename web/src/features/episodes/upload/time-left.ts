// Time left for one upload, from the rate measured since this page started sending it (bytes a
// resumed upload already had on the server do not count as sent fast).

/** Where the measurement starts: the first progress report of this page's upload. */
export interface RateSample {
  at: number;
  bytes: number;
}

/** Too short a measurement swings wildly; nothing is said before it. */
const MIN_MEASURE_MS = 1500;

/** Seconds left for `size` bytes with `bytes` sent at `now`, or null while it cannot be told. */
export function secondsLeft(start: RateSample | undefined, bytes: number, size: number, now: number): number | null {
  if (!start || now - start.at < MIN_MEASURE_MS || bytes <= start.bytes) return null;
  const perMs = (bytes - start.bytes) / (now - start.at);
  return Math.max(0, Math.ceil((size - bytes) / perMs / 1000));
}

/** 'About 45 s left', 'About 3 min left', 'About 1 h 20 min left'. */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `About ${Math.max(1, seconds)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${minutes} min left`;
  return `About ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}
