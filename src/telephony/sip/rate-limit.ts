import net from 'node:net';
import { sourceKey } from './source-key.js';

/**
 * New INVITEs per second per source: a token bucket per source holding up to two seconds'
 * worth. A source is an IPv4 address or an IPv6 prefix (`sourceKey`: a /64 by default, so a
 * subscriber's many addresses share one bucket). Loopback sources are not limited (tests and
 * benches on one machine).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly v6Prefix = 64,
    private readonly exemptLoopback = true,
  ) {}

  /** Takes one token for `address`; false when its bucket is empty. */
  take(address: string, now = Date.now()): boolean {
    if (this.exemptLoopback && isLoopback(address)) return true;
    const key = sourceKey(address, this.v6Prefix);
    const burst = this.perSecond * 2;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Forgets full buckets (sources quiet for a while). */
  sweep(now = Date.now()): void {
    for (const [address, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.perSecond * 2)
        this.buckets.delete(address);
    }
  }
}

export function isLoopback(address: string): boolean {
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return net.isIPv4(v4) && v4.startsWith('127.');
}
