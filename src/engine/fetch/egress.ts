import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses outgoing requests may connect to. With `denyPrivateNetworks`, loopback,
 * private, link-local (cloud metadata) and other non-public ranges are refused unless an
 * `allow` entry (an address or a CIDR block) lets them through.
 */
export interface EgressPolicy {
  denyPrivateNetworks: boolean;
  /** Addresses (`10.1.2.3`, `::1`) or blocks (`10.0.0.0/8`, `fd00::/8`) always allowed. */
  allow?: readonly string[];
}

/** A connection refused by the policy; the request fails like an unreachable URL. */
export class EgressDeniedError extends Error {
  readonly code = 'EGRESS_DENIED';
  constructor(host: string, address: string, range: string) {
    super(
      host === address
        ? `address ${address} is ${range}, refused by the egress policy`
        : `${host} resolves to ${address}, ${range}, refused by the egress policy`,
    );
    this.name = 'EgressDeniedError';
  }
}

/** Ranges refused by `denyPrivateNetworks`, each with the words that explain a refusal. */
const DENIED: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private network address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier NAT, cloud metadata) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local (cloud metadata) address'],
  ['172.16.0.0', 12, 'ipv4', 'a private network address'],
  ['192.0.0.0', 24, 'ipv4', 'a protocol assignment (cloud metadata) address'],
  ['192.168.0.0', 16, 'ipv4', 'a private network address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking network address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a unique local (private, cloud metadata) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const deniedLists = DENIED.map(([net, prefix, family, words]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, family);
  return { list, words };
});

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The 16 bytes of an IPv6 address (a trailing dotted quad included); undefined when not one. */
function ipv6Bytes(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const words =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return words.flatMap((w) => {
    const n = Number.parseInt(w, 16);
    return [n >> 8, n & 0xff];
  });
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, for the forms that reach it:
 * IPv4-compatible `::a.b.c.d` (deprecated, still routed by some stacks) and the NAT64 prefix
 * `64:ff9b::/96`. (IPv4-mapped `::ffff:a.b.c.d` is matched by the IPv4 rules already.)
 */
function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  const head = bytes.slice(0, 12);
  // `::` and `::1` are in the IPv6 ranges already, checked first.
  const compatible = head.every((b) => b === 0);
  const nat64 = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0].every((b, i) => head[i] === b);
  return compatible || nat64 ? bytes.slice(12).join('.') : undefined;
}

/**
 * Parses a list of addresses and CIDR blocks; throws naming the entry (after `what`) when one
 * is neither an address nor a block.
 */
export function addressList(entries: readonly string[], what = 'egress allow-list'): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const [address, bits, ...rest] = entry.split('/');
    const version = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = version === 6 ? 128 : 32;
    if (version === 0 || rest.length > 0 || (prefix !== undefined && (!/^\d+$/.test(bits) || prefix > max))) {
      throw new TypeError(`${what}: '${raw}' is not an IP address or CIDR block`);
    }
    const family = version === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Checks addresses against a policy, and resolves host names to checked addresses only. */
export class EgressGuard {
  private readonly allowed: BlockList;

  constructor(readonly policy: EgressPolicy) {
    this.allowed = addressList(policy.allow ?? []);
  }

  /** Why `address` is refused (the range's words), or undefined when it may be connected to. */
  refusal(address: string): string | undefined {
    if (!this.policy.denyPrivateNetworks) return undefined;
    const family = familyOf(address);
    if (this.allowed.check(address, family)) return undefined;
    for (const { list, words } of deniedLists) if (list.check(address, family)) return words;
    // An IPv6 form that reaches an IPv4 address is that address.
    const ipv4 = embeddedIpv4(address);
    return ipv4 === undefined ? undefined : this.refusal(ipv4);
  }

  /**
   * A `lookup` for sockets (undici's `connect` options): resolves the host, keeps the allowed
   * addresses only, and hands those to the socket, so the address connected to is the one
   * checked (a second resolution cannot swap it: no DNS rebinding).
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      let denied: EgressDeniedError | undefined;
      const allowed = addresses.filter((a) => {
        const why = this.refusal(a.address);
        if (why) denied ??= new EgressDeniedError(hostname, a.address, why);
        return why === undefined;
      });
      if (allowed.length === 0) {
        return callback(denied ?? new Error(`${hostname}: no address`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** True for host names that are IP literals (`[::1]` included): sockets skip `lookup` for them. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
