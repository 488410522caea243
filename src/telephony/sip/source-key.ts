import net from 'node:net';

/** The 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail read). */
function groupsOf(address: string): number[] | undefined {
  const plain = address.replace(/%.*$/, '');
  if (!net.isIPv6(plain)) return undefined;
  let text = plain;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  const groups = [...left, ...fill, ...right];
  return groups.length === 8 ? groups : undefined;
}

/**
 * The key a source address counts under for per-source limits: an IPv4 address (an
 * IPv4-mapped IPv6 one as its IPv4 address) by itself, an IPv6 address by its first
 * `v6Prefix` bits (a /64 by default: one subscriber's whole prefix is one source).
 */
export function sourceKey(address: string, v6Prefix = 64): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const groups = groupsOf(address);
  if (!groups) return address;
  const bits = Math.max(0, Math.min(128, v6Prefix));
  const kept = groups.map((g, i) => {
    const from = i * 16;
    if (bits >= from + 16) return g;
    if (bits <= from) return 0;
    return g & (0xffff << (16 - (bits - from))) & 0xffff;
  });
  return `${kept.map((g) => g.toString(16)).join(':')}/${bits}`;
}
