// How an e-mail leaves: SMTP through nodemailer (any provider's SMTP relay, or the local stack's
// mailbox), or Resend's HTTP API (hosted Edge Functions cannot open ports 25 and 587; an HTTPS API
// needs no SMTP port at all). Chosen by EMAIL_PROVIDER (email-settings.ts).
// @ts-types="@types/nodemailer"
import nodemailer from 'nodemailer';
import { PROVIDER_ANSWER_MAX_BYTES, readCappedText } from '../_shared/domain-server/capped-response.ts';
import type { EmailSettings, SmtpSettings } from '../_shared/email-settings.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers: List-Unsubscribe, List-Unsubscribe-Post, the idempotency key. */
  headers: Record<string, string>;
}

export type SendEmail = (email: OutgoingEmail) => Promise<void>;

/** How long one send may take before it counts as failed (and is tried again later). */
const SEND_TIMEOUT_MS = 20_000;

function smtpSender(from: string, smtp: SmtpSettings): SendEmail {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  return async ({ to, subject, html, text, headers }) => {
    await transport.sendMail({ from, to, subject, html, text, headers });
  };
}

function apiSender(from: string, api: NonNullable<EmailSettings['api']>): SendEmail {
  return async ({ to, subject, html, text, headers }) => {
    const { 'Idempotency-Key': idempotencyKey, ...mailHeaders } = headers;
    const response = await fetch(api.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
      body: JSON.stringify({ from, to: [to], subject, html, text, headers: mailHeaders }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (!response.ok) {
      const answer = await readCappedText(response, PROVIDER_ANSWER_MAX_BYTES).catch(() => '');
      throw new Error(`HTTP ${response.status}: ${answer.slice(0, 500) || response.statusText}`);
    }
    await response.body?.cancel();
  };
}

/** The configured way out, or null when the provider's settings are missing. */
export function emailSender(settings: EmailSettings): SendEmail | null {
  if (settings.provider === 'resend') return settings.api ? apiSender(settings.from, settings.api) : null;
  return settings.smtp ? smtpSender(settings.from, settings.smtp) : null;
}
