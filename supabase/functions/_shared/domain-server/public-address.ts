// Which IP addresses the server may call on a subscriber's behalf (issue 23, item 7): only public
// unicast ones. Every request to an address a user gave (a WordPress site) checks each address its
// host resolves to with this one rule, in the functions and in the worker. An allowlist for IPv6
// (global unicast 2000::/3 only) and a blocklist for IPv4, after undoing every form that embeds
// IPv4 in IPv6 (mapped, compatible, NAT64, 6to4, Teredo), which are refused outright anyway.

/** Why an address is not one the server may call, or null for a public unicast address. */
export type NonPublicReason = 'not an IP address' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'embedded IPv4' | 'shared';

// IPv4 ranges (network, prefix length, reason) that are not public unicast (RFC 6890 and successors).
const IPV4_SPECIAL: ReadonlyArray<readonly [string, number, NonPublicReason]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** A dotted-quad IPv4 address as a 32-bit number, or null when it is not exactly one. */
function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

/** An IPv6 address as eight 16-bit groups (a trailing dotted IPv4 part allowed), or null. */
function parseIpv6(text: string): number[] | null {
  let rest = text;
  const lastColon = rest.lastIndexOf(':');
  if (lastColon >= 0 && rest.includes('.', lastColon)) {
    // The dotted tail is the last two groups.
    const v4 = parseIpv4(rest.slice(lastColon + 1));
    if (v4 === null) return null;
    rest = `${rest.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]);
  const after = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...after].some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  const explicit = head.length + after.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - explicit).fill(0) : [];
  return [...head, ...zeros.map(String), ...after].map((group) => parseInt(group, 16));
}

function ipv4Reason(value: number): NonPublicReason | null {
  if (value === 0xffffffff) return 'reserved';
  for (const [network, prefix, reason] of IPV4_SPECIAL) {
    const size = 2 ** (32 - prefix);
    const start = parseIpv4(network)!;
    if (value >= start && value < start + size) return reason;
  }
  return null;
}

function ipv6Reason(groups: number[]): NonPublicReason | null {
  const [g0, g1] = groups;
  const leadingZero = groups.slice(0, 5).every((g) => g === 0);
  if (groups.every((g) => g === 0)) return 'unspecified';
  if (leadingZero && groups[5] === 0 && groups[6] === 0 && groups[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64).
  if (leadingZero && (groups[5] === 0xffff || groups[5] === 0)) return 'embedded IPv4';
  if (g0 === 0x64 && g1 === 0xff9b) return 'embedded IPv4';
  if (g0 >= 0xff00) return 'multicast';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return 'private';
  // Global unicast is 2000::/3; everything else (100::/64 discard, 0::/8 ...) is not for us.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  // 2002::/16 (6to4) and 2001::/32 (Teredo) carry IPv4 addresses; 2001:db8::/32 and 3fff::/20 are
  // documentation; the rest of 2001::/23 is IETF protocol assignments.
  if (g0 === 0x2002) return 'embedded IPv4';
  if (g0 === 0x2001 && g1 === 0) return 'embedded IPv4';
  if (g0 === 0x2001 && (g1 === 0xdb8 || g1 < 0x200)) return 'reserved';
  if (g0 === 0x3fff && g1 < 0x1000) return 'reserved';
  return null;
}

/**
 * Why `address` (an IP address as DNS or a URL gives it: dotted IPv4, IPv6 with or without
 * brackets, zone index refused) may not be called, or null when it is a public unicast address.
 */
export function nonPublicAddressReason(address: string): NonPublicReason | null {
  const text = address.trim().replace(/^\[(.*)\]$/, '$1');
  const v4 = parseIpv4(text);
  if (v4 !== null) return ipv4Reason(v4);
  if (!text.includes(':') || text.includes('%')) return 'not an IP address';
  const v6 = parseIpv6(text);
  return v6 ? ipv6Reason(v6) : 'not an IP address';
}

/** Whether a URL's hostname is an IP address literal (no name to resolve). */
export function isIpLiteral(hostname: string): boolean {
  const text = hostname.replace(/^\[(.*)\]$/, '$1');
  return parseIpv4(text) !== null || (text.includes(':') && parseIpv6(text) !== null);
}

/**
 * Whether `url` is on one of the configured sandbox origins (local development only: the local
 * stack's sandbox plays WordPress on a loopback address). Exact origins from configuration,
 * never from a request.
 */
export function isSandboxOrigin(url: URL, sandboxOrigins: readonly string[]): boolean {
  return sandboxOrigins.includes(url.origin);
}

/** The comma-separated origins of a configuration value, normalised (invalid entries dropped). */
export function parseOrigins(value: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (value ?? '').split(',')) {
    try {
      if (entry.trim()) origins.push(new URL(entry.trim()).origin);
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return origins;
}
