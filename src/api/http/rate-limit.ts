import type { Context, MiddlewareHandler } from 'hono';
import type { AccountRepository } from '../../store/ports.js';
import { parseBasic, tokenMatches } from './auth.js';
import { ApiError, errorResponse } from './errors.js';

/** Requests per second an account may make to the API (see {@link createRateLimiter}). */
export interface RateLimitOptions {
  /** Tokens added per second: the sustained rate. Must be > 0. */
  requestsPerSecond: number;
  /** Most tokens a bucket holds: the largest burst. Default twice the rate (at least 1). */
  burst?: number;
  /** Clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

/** What a bucket answered: go, or wait this many seconds for the next token. */
export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** One token bucket per key (an account sid), created full on its first request. */
export interface RateLimiter {
  take(key: string): RateVerdict;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const rate = options.requestsPerSecond;
  if (!(rate > 0) || !Number.isFinite(rate)) {
    throw new Error(`requestsPerSecond must be a positive number, got ${rate}`);
  }
  const burst = options.burst ?? Math.max(1, 2 * rate);
  if (!(burst >= 1) || !Number.isFinite(burst)) throw new Error(`burst must be at least 1, got ${burst}`);
  const now = options.now ?? (() => performance.now());
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: t };
      bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * rate);
      bucket.at = t;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
    },
  };
}

/**
 * Limits each account's requests: a request whose Basic credentials are an account's is counted
 * against its bucket, and past it answered 429 (`too-many-requests`, code 20429) with
 * `Retry-After`. Requests without valid credentials pass untouched: their own route answers
 * them (401, or the unauthenticated routes). The account found is left in the context, so the
 * route's own authentication does not read it again. `uncounted` requests are authenticated
 * the same but take no token (in a cluster: a request another node forwarded, counted there).
 */
export function limitRequests(
  accounts: AccountRepository,
  limiter: RateLimiter,
  uncounted: (c: Context) => boolean = () => false,
): MiddlewareHandler {
  return async (c, next) => {
    const credentials = parseBasic(c.req.header('Authorization'));
    if (!credentials) return next();
    const account = await accounts.get(credentials.user);
    if (!account || !tokenMatches(account, credentials.password)) return next();
    c.set('account', account);
    if (uncounted(c)) return next();
    const verdict = limiter.take(account.sid);
    if (verdict.ok) return next();
    const message = `too many requests for account ${account.sid}: retry after ${verdict.retryAfterSeconds} s`;
    return errorResponse(c, new ApiError(429, 'too-many-requests', message), {
      'Retry-After': String(verdict.retryAfterSeconds),
    });
  };
}
