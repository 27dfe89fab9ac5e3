// Requests the functions make to a server a subscriber names (a WordPress site; issue 23,
// item 7): the host is resolved and every address it resolves to must be public
// (domain-server/public-address.ts), and every answer is read only up to a cap
// (domain-server/capped-response.ts) within the request's time limit. The one exception is
// configuration: WORDPRESS_SANDBOX_ORIGINS names the local stack's sandbox origins (it plays
// WordPress on a loopback address); it is unset in production and no request can add to it.
import { settings } from './config.ts';
import { isIpLiteral, isSandboxOrigin, nonPublicAddressReason } from './domain-server/public-address.ts';
import { HttpError } from './http-error.ts';

export const SITE_NOT_PUBLIC = 'The site address must be a public internet address';
export const SITE_NOT_FOUND = 'Could not find the site: its name does not resolve';

/** The configured sandbox origins (local development only). */
export function sandboxOrigins(): string[] {
  return settings().wordpressSandboxOrigins;
}

/** Every address `hostname` resolves to (IPv4 and IPv6). */
async function resolveAll(hostname: string): Promise<string[]> {
  const lookups = await Promise.allSettled([Deno.resolveDns(hostname, 'A'), Deno.resolveDns(hostname, 'AAAA')]);
  return lookups.flatMap((lookup) => (lookup.status === 'fulfilled' ? lookup.value : []));
}

/**
 * Refuses (400) a site on a loopback, private, link-local, unique-local, IPv4-in-IPv6, NAT64,
 * unspecified, multicast or reserved address, checked on what the name resolves to; 502 when
 * the name does not resolve. A sandbox origin from configuration passes.
 */
export async function assertPublicSite(url: URL): Promise<void> {
  if (isSandboxOrigin(url, sandboxOrigins())) return;
  const addresses = isIpLiteral(url.hostname) ? [url.hostname] : await resolveAll(url.hostname);
  if (addresses.length === 0) throw new HttpError(502, SITE_NOT_FOUND);
  if (addresses.some((address) => nonPublicAddressReason(address) !== null)) throw new HttpError(400, SITE_NOT_PUBLIC);
}
