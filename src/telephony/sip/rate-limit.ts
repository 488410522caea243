import net from 'node:net';

/**
 * New INVITEs per second per source address: a token bucket per address holding up to two
 * seconds' worth. Loopback sources are not limited (tests and benches on one machine).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /** Takes one token for `address`; false when its bucket is empty. */
  take(address: string, now = Date.now()): boolean {
    if (isLoopback(address)) return true;
    const burst = this.perSecond * 2;
    const bucket = this.buckets.get(address) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(address, bucket);
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
