import { describe, expect, it } from 'vitest';
import { isIpLiteral, isSandboxOrigin, nonPublicAddressReason, parseOrigins } from './public-address.ts';

/** The hostname a URL parser makes of `host` (how the address reaches the check). */
const hostOf = (host: string) => new URL(`https://${host}/`).hostname;

describe('nonPublicAddressReason', () => {
  it.each([
    // The review's forms: IPv4-mapped loopback, unspecified, long-hand mapped.
    ['[::ffff:7f00:1]', 'embedded IPv4'],
    ['[::]', 'unspecified'],
    ['[0:0:0:0:0:ffff:127.0.0.1]', 'embedded IPv4'],
    ['[::ffff:127.0.0.1]', 'embedded IPv4'],
    ['[::ffff:8.8.8.8]', 'embedded IPv4'],
    ['[::127.0.0.1]', 'embedded IPv4'],
    ['[::1]', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[64:ff9b::7f00:1]', 'embedded IPv4'],
    ['[64:ff9b::8.8.8.8]', 'embedded IPv4'],
    ['[64:ff9b:1::1]', 'embedded IPv4'],
    ['[2002:7f00:1::]', 'embedded IPv4'],
    ['[2001:0:4136:e378::1]', 'embedded IPv4'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['[fc00::1]', 'private'],
    ['[fd12:3456::1]', 'private'],
    ['[fec0::1]', 'private'],
    ['[ff02::1]', 'multicast'],
    ['[100::1]', 'reserved'],
    ['[2001:db8::1]', 'reserved'],
    ['[3fff::1]', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('%s is %s', (address, reason) => {
    expect(nonPublicAddressReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '[2606:4700:4700::1111]', '2a00:1450:4001:80b::200e', '[2001:4860:4860::8888]'])(
    '%s is public',
    (address) => {
      expect(nonPublicAddressReason(address)).toBeNull();
    },
  );

  it('reads each address as a URL parser hands it over (decimal, hex and short IPv4 forms become dotted)', () => {
    for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '[0:0:0:0:0:ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
      expect(nonPublicAddressReason(hostOf(host))).not.toBeNull();
    }
  });

  it.each(['example.com', '', '1.2.3', '1.2.3.256', '01.2.3.4', '::1%eth0', 'fe80::1%25eth0', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1'])('refuses %j as not an IP address', (text) => {
    expect(nonPublicAddressReason(text)).toBe('not an IP address');
  });
});

describe('isIpLiteral', () => {
  it('tells addresses from names', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
    expect(isIpLiteral('127.0.0.1.nip.io')).toBe(false);
  });
});

describe('sandbox origins (configuration only)', () => {
  it('allows exactly the configured origins', () => {
    const origins = parseOrigins(' http://127.0.0.1:54399/ , not a url,');
    expect(origins).toEqual(['http://127.0.0.1:54399']);
    expect(isSandboxOrigin(new URL('http://127.0.0.1:54399/wordpress/site'), origins)).toBe(true);
    expect(isSandboxOrigin(new URL('http://127.0.0.1:5432/'), origins)).toBe(false);
    expect(isSandboxOrigin(new URL('http://[::ffff:7f00:1]:54399/'), origins)).toBe(false);
    expect(parseOrigins(undefined)).toEqual([]);
  });
});
