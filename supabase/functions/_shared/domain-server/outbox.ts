// Delivery of accepted submissions to the processing automation (the outbox): how often a
// failed delivery is retried and when it is given up.
import { SIGNED_URL_MAX_SECONDS } from './storage-limits.ts';

/** Attempts before a delivery is marked failed (the last error is kept for administrators). */
export const MAX_DELIVERY_ATTEMPTS = 8;
const RETRY_BASE_SECONDS = 30;
const RETRY_CAP_SECONDS = 60 * 60;
/** How long a claimed delivery stays with its runner before another may claim it again. */
export const DELIVERY_LEASE_SECONDS = 5 * 60;
/** How long the signed download URLs in a delivery stay valid: the longest allowed. */
export const DOWNLOAD_URL_SECONDS = SIGNED_URL_MAX_SECONDS;
export const SIGNATURE_HEADER = 'Castloop-Signature';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Exponential backoff after the n-th failed attempt (1-based): 30 s, 60 s, 120 s, ... capped at 1 h. */
export function retryDelaySeconds(failedAttempt: number, base = RETRY_BASE_SECONDS, cap = RETRY_CAP_SECONDS): number {
  const exponent = Math.max(0, failedAttempt - 1);
  return Math.min(cap, base * 2 ** exponent);
}

export function shouldGiveUp(failedAttempt: number, maxAttempts = MAX_DELIVERY_ATTEMPTS): boolean {
  return failedAttempt >= maxAttempts;
}
