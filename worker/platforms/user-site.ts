// Requests the worker makes to a server a subscriber names (their WordPress site; issue 23,
// item 7), under the functions' rules (supabase/functions/_shared/user-site.ts): every address
// the host resolves to must be public, and answers are read only up to a cap. The local stack's
// sandbox origins pass by configuration (WORDPRESS_SANDBOX_ORIGINS), never by request.
import { lookup } from 'node:dns/promises';
import { AnswerTooLargeError, readCappedJson, USER_SITE_ANSWER_MAX_BYTES } from '../../supabase/functions/_shared/domain-server/capped-response.ts';
import { isIpLiteral, isSandboxOrigin, nonPublicAddressReason } from '../../supabase/functions/_shared/domain-server/public-address.ts';
import { ProcessingFailure } from '../failure.ts';

/** How long one call to the site may take, its answer included. */
export const USER_SITE_TIMEOUT_MS = 30_000;
/** How long the clip's upload to the site may take, its answer included (a clip is tens of MB at most). */
export const USER_SITE_UPLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Refuses a site on a loopback, private, link-local, unique-local, IPv4-in-IPv6, NAT64,
 * unspecified, multicast or reserved address, checked on every address the name resolves to.
 * As a 403: only reconnecting (with another site) helps.
 */
export async function assertPublicSite(url: URL, sandboxOrigins: readonly string[]): Promise<void> {
  if (isSandboxOrigin(url, sandboxOrigins)) return;
  const addresses = isIpLiteral(url.hostname)
    ? [url.hostname]
    : (await lookup(url.hostname, { all: true, verbatim: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) throw ProcessingFailure.refusal(502, `The WordPress site ${url.hostname} does not resolve`);
  if (addresses.some((address) => nonPublicAddressReason(address) !== null)) {
    throw ProcessingFailure.refusal(403, `The WordPress site ${url.hostname} is not on a public internet address: reconnect WordPress with your public site`);
  }
}

/** A site's JSON answer, read up to the cap; a refusal becomes a ProcessingFailure with (the start of) its text. */
export async function siteJson<T>(res: Response, what: string): Promise<T> {
  let body: unknown;
  try {
    body = await readCappedJson(res, USER_SITE_ANSWER_MAX_BYTES);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw ProcessingFailure.refusal(502, `${what}: the answer is larger than ${USER_SITE_ANSWER_MAX_BYTES} bytes`);
    throw ProcessingFailure.refusal(504, `${what}: the site did not send its whole answer in time`);
  }
  if (!res.ok) throw ProcessingFailure.refusal(res.status, `${what}: ${res.status} ${JSON.stringify(body ?? null).slice(0, 300)}`);
  return body as T;
}
