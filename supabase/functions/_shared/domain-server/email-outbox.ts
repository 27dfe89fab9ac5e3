// The e-mail outbox's rules (issue 43, item 1): how often a failed send is tried again and when it
// is given up, and the signed unsubscribe token the e-mails carry. Web APIs only (crypto.subtle,
// btoa): runs in Deno and Node.
import { isEmailKind, readUnsubscribeClaim, type EmailKind, type UnsubscribeClaim } from '../domain/email.ts';

/** Attempts before an e-mail is given up (the last error stays on the outbox row). */
export const MAX_EMAIL_ATTEMPTS = 8;
const RETRY_BASE_SECONDS = 60;
const RETRY_CAP_SECONDS = 60 * 60;
/** How long a claimed e-mail stays with its sender run before another may claim it. */
export const EMAIL_LEASE_SECONDS = 5 * 60;
/** E-mails one sender run claims. */
export const EMAIL_BATCH = 20;

/** Backoff after the n-th failed attempt (1-based): 1, 2, 4 ... minutes, capped at an hour. */
export function emailRetryDelaySeconds(failedAttempt: number): number {
  return Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, failedAttempt - 1));
}

export const shouldGiveUpEmail = (failedAttempt: number) => failedAttempt >= MAX_EMAIL_ATTEMPTS;

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

async function hmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))));
}

/** Equal-time comparison of two signatures. */
function sameSignature(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * `<base64url JSON {u, k}>.<base64url HMAC-SHA256 of the first part>` with EMAIL_UNSUBSCRIBE_SECRET.
 * It does not expire: an unsubscribe link must work whenever the e-mail is read.
 */
export async function signUnsubscribeToken(secret: string, userId: string, kind: EmailKind): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify({ u: userId, k: kind })));
  return `${payload}.${await hmac(secret, payload)}`;
}

/** The token's claim when its signature holds, else null. */
export async function verifyUnsubscribeToken(secret: string, token: string): Promise<UnsubscribeClaim | null> {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  if (!sameSignature(signature, await hmac(secret, payload))) return null;
  const claim = readUnsubscribeClaim(token);
  return claim && isEmailKind(claim.kind) && /^[0-9a-f-]{36}$/i.test(claim.userId) ? claim : null;
}
