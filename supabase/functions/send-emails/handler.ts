// One run of the e-mail sender: claim due e-mails (private.claim_emails, FOR UPDATE SKIP LOCKED, so
// parallel runs never share one), render each from the one set of templates, send it through the
// configured provider, and record the outcome: sent, or tried again with backoff and given up
// after the last attempt, keeping the last error.
import { settings } from '../_shared/config.ts';
import { db } from '../_shared/db.ts';
import { isEmailKind, isEssentialEmailKind, UNSUBSCRIBE_TOKEN_PARAM, type EmailKind } from '../_shared/domain/email.ts';
import {
  EMAIL_BATCH,
  EMAIL_LEASE_SECONDS,
  emailRetryDelaySeconds,
  shouldGiveUpEmail,
  signUnsubscribeToken,
} from '../_shared/domain-server/email-outbox.ts';
import { emailDataSchema, renderEmail } from '../_shared/domain-server/email-templates.ts';
import { isServiceCaller } from '../_shared/service-caller.ts';
import { emailSender, type OutgoingEmail, type SendEmail } from './transport.ts';

interface ClaimedEmail {
  id: string;
  kind: string;
  recipient: string;
  user_id: string;
  data: unknown;
  attempts: number;
}
type Outcome = 'sent' | 'retrying' | 'failed';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const reason = (cause: unknown) => (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));

/**
 * The e-mail as it leaves. A kind one may unsubscribe from carries the signed link twice: in the
 * footer (the /unsubscribe page, which asks first) and as RFC 8058 one-click List-Unsubscribe
 * headers (the api's POST, which a mail client sends without asking; a GET there shows the page).
 */
async function outgoing(row: ClaimedEmail, kind: EmailKind): Promise<OutgoingEmail> {
  const { siteUrl, email } = settings();
  const headers: Record<string, string> = { 'Idempotency-Key': `castloop-email-${row.id}` };
  let unsubscribeUrl: string | null = null;
  if (!isEssentialEmailKind(kind)) {
    const token = encodeURIComponent(await signUnsubscribeToken(email.unsubscribeSecret, row.user_id, kind));
    unsubscribeUrl = `${siteUrl}/unsubscribe?${UNSUBSCRIBE_TOKEN_PARAM}=${token}`;
    headers['List-Unsubscribe'] = `<${siteUrl}/api/email/unsubscribe?${UNSUBSCRIBE_TOKEN_PARAM}=${token}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const data = emailDataSchema.safeParse(row.data);
  const rendered = renderEmail(kind, data.success ? data.data : {}, { siteUrl, unsubscribeUrl });
  return { to: row.recipient, ...rendered, headers };
}

async function sendOne(row: ClaimedEmail, send: SendEmail): Promise<Outcome> {
  let error: string | null = null;
  try {
    if (!isEmailKind(row.kind)) throw new Error(`unknown e-mail kind ${row.kind}`);
    await send(await outgoing(row, row.kind));
  } catch (cause) {
    error = reason(cause);
  }
  const giveUp = error !== null && shouldGiveUpEmail(row.attempts);
  try {
    await db()`
      select private.record_email_attempt(${row.id}::uuid, ${error === null}, ${error}::text,
        ${`${emailRetryDelaySeconds(row.attempts)} seconds`}::interval, ${giveUp})`;
  } catch (cause) {
    // Unrecorded, the lease runs out and the e-mail is claimed again: the provider's idempotency
    // key (HTTP API) drops the repeat.
    throw new Error(`could not record e-mail ${row.id}: ${reason(cause)}`, { cause });
  }
  return error === null ? 'sent' : giveUp ? 'failed' : 'retrying';
}

export async function handleEmailRun(request: Request): Promise<Response> {
  await request.body?.cancel();
  if (request.method !== 'POST') return json(405, { message: 'Use POST' });
  if (!isServiceCaller(request)) return json(401, { message: 'Only the scheduler may send e-mails' });
  const send = emailSender(settings().email);
  if (!send) return json(503, { message: 'The e-mail provider is not configured (EMAIL_PROVIDER and its settings)' });

  let claimed: ClaimedEmail[];
  try {
    claimed = await db()<ClaimedEmail[]>`
      select id, kind, recipient, user_id, data, attempts
        from private.claim_emails(${EMAIL_BATCH}::integer, ${`${EMAIL_LEASE_SECONDS} seconds`}::interval)`;
  } catch (cause) {
    return json(500, { message: `could not claim e-mails: ${reason(cause)}` });
  }
  // One at a time: an SMTP relay takes one connection's mail in order, and a batch is small.
  const outcomes: Outcome[] = [];
  for (const row of claimed) outcomes.push(await sendOne(row, send));
  const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
  return json(200, { claimed: claimed.length, sent: count('sent'), retrying: count('retrying'), failed: count('failed') });
}
