// Webhook signing and delivery, as Stripe does it: POST the event as JSON with
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by the secret>`.
import { createHmac } from 'node:crypto';

export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface Delivery {
  /** Unix milliseconds when the attempt started. */
  at: number;
  url: string;
  /** HTTP status of the endpoint's answer; null when it could not be reached. */
  status: number | null;
  ok: boolean;
  error: string | null;
  durationMs: number;
  /** The first 500 characters of the endpoint's answer. */
  response: string;
  /** Why this attempt happened. */
  reason: 'initial' | 'retry' | 'resend';
}

export async function deliver(
  url: string,
  payload: string,
  secret: string,
  reason: Delivery['reason'],
  timeoutMs = 15_000,
): Promise<Delivery> {
  const at = Date.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signatureHeader(payload, secret),
      },
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text().catch(() => '');
    return {
      at,
      url,
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      error: null,
      durationMs: Date.now() - at,
      response: text.slice(0, 500),
      reason,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const message = cause?.code ?? cause?.message ?? (error as Error).message;
    return { at, url, status: null, ok: false, error: message, durationMs: Date.now() - at, response: '', reason };
  }
}
