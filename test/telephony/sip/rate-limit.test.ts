import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/telephony/sip/rate-limit.js';
import { sourceKey } from '../../../src/telephony/sip/source-key.js';

describe('INVITE rate limit per source', () => {
  it('lets a burst of twice the rate through, then the rate, and never limits loopback', () => {
    const limiter = new RateLimiter(10);
    const taken = Array.from({ length: 25 }, () => limiter.take('203.0.113.5', 1000)).filter(Boolean);
    expect(taken).toHaveLength(20);
    expect(limiter.take('203.0.113.5', 1100)).toBe(true);
    expect(limiter.take('203.0.113.5', 1100)).toBe(false);
    expect(limiter.take('198.51.100.1', 1100)).toBe(true);
    expect(Array.from({ length: 100 }, () => limiter.take('127.0.0.1', 1000)).every(Boolean)).toBe(true);
  });

  it('counts the addresses of one IPv6 /64 as one source (ten addresses get one burst, not ten)', () => {
    const limiter = new RateLimiter(10);
    const taken = Array.from(
      { length: 10 },
      (_, i) =>
        Array.from({ length: 5 }, () => limiter.take(`2001:db8:1:2::${i + 1}`, 1000)).filter(Boolean).length,
    ).reduce((a, b) => a + b, 0);
    expect(taken).toBe(20);
    expect(limiter.take('2001:db8:1:3::1', 1000)).toBe(true);
  });
});

describe('sourceKey', () => {
  it('keeps IPv4 (mapped too) as is and an IPv6 address by its prefix', () => {
    expect(sourceKey('203.0.113.5')).toBe('203.0.113.5');
    expect(sourceKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(sourceKey('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(sourceKey('2001:db8:1:2::1')).toBe(sourceKey('2001:db8:1:2:ffff::9'));
    expect(sourceKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(sourceKey('2001:db8::1', 128)).toBe('2001:db8:0:0:0:0:0:1/128');
  });

  it('gives two addresses one key exactly when their first 64 bits agree (property)', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const address = fc.array(group, { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(address, address, (a, b) => {
        const text = (g: number[]) => g.map((x) => x.toString(16)).join(':');
        const same = a.slice(0, 4).every((x, i) => x === b[i]);
        expect(sourceKey(text(a)) === sourceKey(text(b))).toBe(same);
      }),
    );
  });
});
