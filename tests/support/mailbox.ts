// The local stack's mailbox (MailDev's REST API behind the stack's front): every e-mail to an
// address, and waiting for one, for tests of the e-mails the product sends.
import { config } from './stack.ts';

export interface MailboxEmail {
  id: string;
  subject: string;
  html: string;
  text: string;
  to: Array<{ address: string }>;
  from: Array<{ address: string; name: string }>;
}

/** Every e-mail in the mailbox to `address`, oldest first. */
export async function mailsTo(address: string): Promise<MailboxEmail[]> {
  const res = await fetch(`${config.urls.mailbox}/email`);
  if (!res.ok) throw new Error(`the mailbox answered ${res.status}`);
  const mails = (await res.json()) as MailboxEmail[];
  return mails.filter((mail) => mail.to.some((recipient) => recipient.address.toLowerCase() === address.toLowerCase()));
}

/** Waits for the e-mail to `address` whose subject is `subject` (polling, with a deadline). */
export async function waitForMailTo(address: string, subject: string, timeoutMs = 20_000): Promise<MailboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(address)).find((mail) => mail.subject === subject);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = (await mailsTo(address)).map((mail) => mail.subject);
      throw new Error(`no e-mail "${subject}" to ${address} within ${timeoutMs} ms (seen: ${JSON.stringify(seen)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The link labelled `label` in an e-mail's text part ("label: url" lines). */
export function linkIn(mail: MailboxEmail, label: string): string {
  const line = mail.text.split('\n').find((candidate) => candidate.startsWith(`${label}: `));
  if (!line) throw new Error(`no "${label}" link in "${mail.subject}": ${mail.text}`);
  return line.slice(label.length + 2).trim();
}

/**
 * The e-mail's headers as sent (names in lower case, folded lines joined), from its source: MailDev's
 * parsed headers leave out the structured ones, List-Unsubscribe among them.
 */
export async function headersOf(mail: MailboxEmail): Promise<Record<string, string>> {
  const res = await fetch(`${config.urls.mailbox}/email/${mail.id}/source`);
  if (!res.ok) throw new Error(`the mailbox answered ${res.status} for the source of "${mail.subject}"`);
  const head = (await res.text()).split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}
