/**
 * Failed console logins per account sid: past a number within a window, logins for that sid are
 * refused (429 with `Retry-After`) until the window ends, so a weak auth token cannot be guessed
 * through the login form at the speed of the network.
 */
import { createFailureWindow } from '../http/auth-failures.js';
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
  // Ended windows are dropped before live ones when the table is full, and failures per source
  // address (limitAuthFailures) bound how fast one client can fill it with made-up sids.
  const window = createFailureWindow(options.failures ?? 10, options.windowMs ?? 60_000, options.now);
  return {
    check(sid) {
      const wait = window.blockedFor(sid);
      if (wait !== undefined) throw new LoginRefused(wait);
    },
    failed: (sid) => window.failed(sid),
    succeeded: (sid) => window.clear(sid),
  };
}
