import { isLoopback } from './rate-limit.js';
import { sourceKey } from './source-key.js';

/** Limits of {@link AuthFailures}. */
export interface AuthFailureLimits {
  /** Wrong answers from one source for one login before that pair is locked out. Default 5. */
  perLoginAndSource: number;
  /** Wrong answers from one source, whatever the logins, before that source is locked out. Default 20. */
  perSource: number;
  /**
   * Wrong answers for one login, from all sources, before it is locked out for every source but
   * those it authenticated from lately (its usual addresses). Default 50.
   */
  perLogin: number;
  /** The first lockout, ms; each further one lasts twice the one before, up to `maxLockMs`. Default 60 s. */
  lockMs: number;
  /** The longest lockout, ms. Default one hour. */
  maxLockMs: number;
  /** How long failures are remembered once the last one is this old, ms. Default 10 minutes. */
  windowMs: number;
}

export const AUTH_FAILURE_LIMITS: AuthFailureLimits = {
  perLoginAndSource: 5,
  perSource: 20,
  perLogin: 50,
  lockMs: 60_000,
  maxLockMs: 3_600_000,
  windowMs: 600_000,
};

interface Tally {
  failures: number;
  last: number;
  /** Until when it is locked out (0: not), and how many lockouts it has had. */
  lockedUntil: number;
  lockouts: number;
}

/** Sources a login authenticated from, kept this long (ms): its usual addresses. */
const KNOWN_GOOD_MS = 24 * 3600_000;
const MAX_TALLIES = 100_000;

/**
 * Failed digest answers, counted per login and source, per source and per login, with lockouts
 * that double each time (what fail2ban and Kamailio's pike give other servers' operators). A
 * locked request is refused as a wrong password is, without its answer being checked, so that
 * guessing gains nothing; a client's own usual source keeps working while a guesser elsewhere is
 * locked out of its login. Loopback is counted too, and is nobody's usual address by default.
 */
export class AuthFailures {
  private readonly tallies = new Map<string, Tally>();
  private readonly good = new Map<string, number>();
  private readonly limits: AuthFailureLimits;

  constructor(
    private readonly now: () => number,
    limits: Partial<AuthFailureLimits> = {},
    private readonly v6Prefix = 64,
  ) {
    this.limits = { ...AUTH_FAILURE_LIMITS, ...limits };
  }

  /** Whether answers for `login` from `address` are refused unchecked now. */
  locked(login: string, address: string): boolean {
    const source = sourceKey(address, this.v6Prefix);
    const now = this.now();
    if (this.isLocked(`p|${login}|${source}`, now) || this.isLocked(`s|${source}`, now)) return true;
    return this.isLocked(`l|${login}`, now) && !this.usual(login, source, now);
  }

  /** A wrong answer (or an unknown login) for `login` from `address`. */
  failed(login: string, address: string): void {
    const source = sourceKey(address, this.v6Prefix);
    const now = this.now();
    this.count(`p|${login}|${source}`, this.limits.perLoginAndSource, now);
    this.count(`s|${source}`, this.limits.perSource, now);
    this.count(`l|${login}`, this.limits.perLogin, now);
  }

  /** A right answer: the pair's failures are forgotten and the source becomes a usual one. */
  succeeded(login: string, address: string): void {
    const source = sourceKey(address, this.v6Prefix);
    this.tallies.delete(`p|${login}|${source}`);
    if (!isLoopback(address)) this.good.set(`${login}|${source}`, this.now());
  }

  /** Forgets what is old. */
  sweep(): void {
    const now = this.now();
    for (const [key, t] of this.tallies)
      if (t.lockedUntil <= now && t.last + this.limits.windowMs <= now) this.tallies.delete(key);
    for (const [key, at] of this.good) if (at + KNOWN_GOOD_MS <= now) this.good.delete(key);
  }

  private usual(login: string, source: string, now: number): boolean {
    const at = this.good.get(`${login}|${source}`);
    return at !== undefined && at + KNOWN_GOOD_MS > now;
  }

  private isLocked(key: string, now: number): boolean {
    const t = this.tallies.get(key);
    return t !== undefined && t.lockedUntil > now;
  }

  private count(key: string, limit: number, now: number): void {
    let t = this.tallies.get(key);
    if (t && t.lockedUntil <= now && t.last + this.limits.windowMs <= now) {
      // Quiet for a whole window: a fresh start, but the lockouts so far still double the next one.
      t.failures = 0;
    }
    if (!t) {
      if (this.tallies.size >= MAX_TALLIES) this.sweep();
      t = { failures: 0, last: now, lockedUntil: 0, lockouts: 0 };
      this.tallies.set(key, t);
    }
    t.failures += 1;
    t.last = now;
    if (t.failures >= limit) {
      t.lockedUntil = now + Math.min(this.limits.lockMs * 2 ** t.lockouts, this.limits.maxLockMs);
      t.lockouts += 1;
      t.failures = 0;
    }
  }
}
