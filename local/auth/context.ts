// What every route handler gets: settings, the database, the mailer and the rate limiters.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from './db.ts';
import { tooManyRequests } from './errors.ts';
import { clientIp } from './http.ts';
import type { Mailer } from './mail.ts';
import { RateLimiter } from './rate-limit.ts';
import type { AuthSettings } from './settings.ts';

// `recover`, `otp`, `magicLink` and `resend` are GoTrue's per-route limiters at RATE_LIMIT_OTP
// ([auth.rate_limit] sign_in_sign_ups), each its own bucket.
type LimitKind = 'signInSignUps' | 'tokenVerifications' | 'tokenRefresh' | 'emailSent' | 'recover' | 'otp' | 'magicLink' | 'resend';

export interface AuthContext {
  settings: AuthSettings;
  db: Db;
  mailer: Mailer;
  /**
   * Counts a request against a limit; throws 429 once it is used up. Per client address, except
   * `emailSent`: GoTrue counts e-mails for the whole project, just before one is sent, and not
   * at all while confirmations are off (autoconfirm; GoTrue's sendEmail skips it then).
   */
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
    recover: new RateLimiter(limits.signInSignUps, fiveMinutes),
    otp: new RateLimiter(limits.signInSignUps, fiveMinutes),
    magicLink: new RateLimiter(limits.signInSignUps, fiveMinutes),
    resend: new RateLimiter(limits.signInSignUps, fiveMinutes),
    emailSent: new RateLimiter(limits.emailSent, oneHour, () =>
      tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded'),
    ),
  };
  return (kind, req) => {
    if (!limits.enabled) return;
    if (kind !== 'emailSent') limiters[kind].hit(clientIp(req));
    else if (!settings.autoconfirm) limiters.emailSent.hit('project');
  };
}
