import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/telephony/sip/rate-limit.js';

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
});
