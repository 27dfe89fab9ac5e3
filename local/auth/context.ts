// What every route handler gets: settings, the database, the mailer and the rate limiters.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from './db.ts';
import { tooManyRequests } from './errors.ts';
import { clientIp } from './http.ts';
import type { Mailer } from './mail.ts';
import { RateLimiter } from './rate-limit.ts';
import type { AuthSettings } from './settings.ts';

type LimitKind = 'signInSignUps' | 'tokenVerifications' | 'tokenRefresh' | 'emailSent';

export interface AuthContext {
  settings: AuthSettings;
  db: Db;
  mailer: Mailer;
  /** Counts a request against a per-IP limit; throws 429 once it is used up. */
  limit(kind: LimitKind, req: IncomingMessage): void;
  log(line: string): void;
}

export type RouteHandler = (
  ctx: AuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  params: Record<string, string>,
) => Promise<void>;

const fiveMinutes = 5 * 60_000;
const oneHour = 60 * 60_000;

export function createLimiter(settings: AuthSettings): (kind: LimitKind, req: IncomingMessage) => void {
  const limits = settings.rateLimit;
  const limiters: Record<LimitKind, RateLimiter> = {
    signInSignUps: new RateLimiter(limits.signInSignUps, fiveMinutes),
    tokenVerifications: new RateLimiter(limits.tokenVerifications, fiveMinutes),
    tokenRefresh: new RateLimiter(limits.tokenRefresh, fiveMinutes),
    emailSent: new RateLimiter(limits.emailSent, oneHour, () =>
      tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded'),
    ),
  };
  return (kind, req) => {
    if (limits.enabled) limiters[kind].hit(clientIp(req));
  };
}
