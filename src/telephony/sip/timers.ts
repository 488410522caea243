/**
 * The time SIP runs on: every retransmission and transaction timer of RFC 3261 section 17 (and
 * RFC 6026) goes through this port, so that a test of Timer B (32 s) runs in microseconds on
 * {@link ManualSipTimers} while `rcml serve` runs on {@link realSipTimers}. The engine's `Clock`
 * has this shape too and may be passed as is.
 */
export interface SipTimers {
  /** Current time, ms. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds of this port's time. */
  setTimeout(fn: () => void, ms: number): object;
  clearTimeout(handle: object): void;
}

/** RFC 3261 timer values, ms: T1 (round-trip estimate), T2 (retransmission cap), T4 (network lifetime). */
export const T1 = 500;
export const T2 = 4000;
export const T4 = 5000;

/**
 * Wall-clock timers. They do not keep the process alive on their own: a SIP service is kept
 * alive by its sockets, and a transaction left over at shutdown must not delay the exit.
 */
export const realSipTimers: SipTimers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * Timers that move only when told (`advance`): deadlines fire in order, timers set by a timer
 * that fires within the advanced span fire too, and equal deadlines fire in the order set.
 */
export class ManualSipTimers implements SipTimers {
  private time: number;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): object {
    const timer: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.pending.add(timer);
    return timer;
  }

  clearTimeout(handle: object): void {
    this.pending.delete(handle as Pending);
  }

  /** Timers not yet fired nor cleared. */
  get size(): number {
    return this.pending.size;
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: Pending | undefined;
      for (const t of this.pending) {
        if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      }
      if (!next) break;
      this.pending.delete(next);
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }

  /** Fires timers until none is left (at most `limit` deadlines). */
  runAll(limit = 10_000): void {
    for (let i = 0; i < limit && this.pending.size > 0; i++) {
      let next = Number.POSITIVE_INFINITY;
      for (const t of this.pending) next = Math.min(next, t.at);
      this.advance(next - this.time);
    }
  }
}
