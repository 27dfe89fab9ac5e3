// Transactional e-mail (issue 43, item 1): which e-mails Castloop sends, which a subscriber may
// unsubscribe from, and the unsubscribe link's shapes. Shared by the SPA (the /unsubscribe page),
// the `api` function (POST /api/email/unsubscribe) and the sender; SQL keeps the same lists
// (supabase/migrations/20261128170000_transactional_email.sql, held together by
// tests/db/domain-constants.test.ts).
import { z } from 'zod/mini';

export const PRODUCT_NAME = 'Castloop';

export const EMAIL_KINDS = [
  'submission_received',
  'ready_for_review',
  'delivered',
  'failed',
  'hosting_ready',
  'reconnect',
  'allowance_reached',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * Always sent: what went wrong with an episode and a connection that needs reconnecting (both ask
 * the subscriber to act), and hosting being ready (the welcome promises that e-mail).
 */
export const EMAIL_ESSENTIAL_KINDS = ['failed', 'hosting_ready', 'reconnect'] as const satisfies readonly EmailKind[];

export function isEmailKind(value: unknown): value is EmailKind {
  return typeof value === 'string' && (EMAIL_KINDS as readonly string[]).includes(value);
}

export function isEssentialEmailKind(kind: EmailKind): boolean {
  return (EMAIL_ESSENTIAL_KINDS as readonly string[]).includes(kind);
}

/** What each kind of e-mail is about, in the words of the unsubscribe page and the e-mails' footers. */
export const emailKindDescriptions: Record<EmailKind, string> = {
  submission_received: 'an episode you submitted was received',
  ready_for_review: 'an episode is ready for your review',
  delivered: 'an episode is delivered',
  failed: 'an episode could not be processed',
  hosting_ready: 'your podcast hosting is ready',
  reconnect: 'a connection needs reconnecting',
  allowance_reached: "you have used this month's episodes",
};

/** The query parameter of the signed unsubscribe link (/unsubscribe and /api/email/unsubscribe). */
export const UNSUBSCRIBE_TOKEN_PARAM = 'token';

/** What a signed unsubscribe token carries: whose e-mails, and which kind. */
export interface UnsubscribeClaim {
  userId: string;
  kind: EmailKind;
}

/**
 * The claim of a token as the page reads it before asking (its signature is the server's to
 * check): the part before the dot, base64url JSON {u, k}. Null for anything else.
 */
export function readUnsubscribeClaim(token: string): UnsubscribeClaim | null {
  const [payload] = token.split('.');
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  try {
    const json = atob(payload.replaceAll('-', '+').replaceAll('_', '/'));
    const value = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (char) => char.charCodeAt(0)))) as { u?: unknown; k?: unknown };
    return typeof value.u === 'string' && isEmailKind(value.k) ? { userId: value.u, kind: value.k } : null;
  } catch {
    return null;
  }
}

/** POST /api/email/unsubscribe's answer. */
export interface UnsubscribeAnswer {
  kind: EmailKind;
  message: string;
}

export const unsubscribeAnswerSchema: z.ZodMiniType<UnsubscribeAnswer> = z.object({
  kind: z.enum(EMAIL_KINDS),
  message: z.string(),
});

/** The answer's words. */
export const unsubscribedMessage = (kind: EmailKind) =>
  `You will no longer receive e-mails when ${emailKindDescriptions[kind]}.`;
