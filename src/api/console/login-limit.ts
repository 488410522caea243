/**
 * Failed console logins per account sid: past a number within a window, logins for that sid are
 * refused (429 with `Retry-After`) until the window ends, so a weak auth token cannot be guessed
 * through the login form at the speed of the network.
 */
import { ApiError } from '../http/errors.js';

/** Limits of failed logins. */
export interface LoginLimitOptions {
  /** Failures allowed per account sid within `windowMs`. Default 10. */
  failures?: number;
  /** Default one minute. */
  windowMs?: number;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
}

const MAX_TRACKED = 10_000;

export interface LoginLimit {
  /** Throws a 429 while the sid's logins are refused. */
  check(accountSid: string): void;
  failed(accountSid: string): void;
  succeeded(accountSid: string): void;
}

/** An error whose answer carries `Retry-After`. */
export class LoginRefused extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'too-many-requests', `too many failed logins: retry after ${retryAfterSeconds} s`);
  }
}

export function createLoginLimit(options: LoginLimitOptions = {}): LoginLimit {
  const max = options.failures ?? 10;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const tracked = new Map<string, { count: number; since: number }>();
  const current = (sid: string) => {
    const entry = tracked.get(sid);
    if (entry && now() - entry.since >= windowMs) {
      tracked.delete(sid);
      return undefined;
    }
    return entry;
  };
  return {
    check(sid) {
      const entry = current(sid);
      if (entry && entry.count >= max) {
        throw new LoginRefused(Math.max(1, Math.ceil((entry.since + windowMs - now()) / 1000)));
      }
    },
    failed(sid) {
      const entry = current(sid);
      if (entry) entry.count++;
      else {
        tracked.set(sid, { count: 1, since: now() });
        if (tracked.size > MAX_TRACKED) tracked.delete(tracked.keys().next().value as string);
      }
    },
    succeeded(sid) {
      tracked.delete(sid);
    },
  };
}
