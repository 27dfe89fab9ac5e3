// Per-IP request limits over a sliding window, as GoTrue's [auth.rate_limit] settings.
import { tooManyRequests } from './errors.ts';

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly error: () => Error = () =>
      tooManyRequests('over_request_rate_limit', 'Request rate limit reached'),
  ) {}

  /** Counts one request from `key`; throws 429 when the window already holds `limit` requests. */
  hit(key: string, now = Date.now()): void {
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((time) => time > since);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      throw this.error();
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(since);
  }

  private prune(since: number): void {
    for (const [key, times] of this.hits) if (!times.some((time) => time > since)) this.hits.delete(key);
  }
}
