import net from 'node:net';

/**
 * Whether an address cannot be reached from outside its own network: RFC 1918 and shared
 * (RFC 6598) IPv4 space, loopback, link-local, and IPv6 unique-local. A Contact naming one while
 * its request came from elsewhere is behind a NAT (Kamailio's `nat_uac_test` makes the same call).
 */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (net.isIPv4(v4)) {
    const [a, b] = v4.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254)
    );
  }
  if (!net.isIPv6(address)) return false;
  const lower = address.toLowerCase();
  return lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}
