import type { Clock, TimerHandle } from './clock.js';
import { IoTracking } from './io-tracking.js';
import { TimerHeap, type VirtualTimer } from './timer-heap.js';

/** Fixed default start of virtual runs: 2024-01-01T00:00:00Z. */
export const DEFAULT_EPOCH = Date.UTC(2024, 0, 1);

/** Longest span `runUntilIdle` covers before giving up, so endless loops cannot hang a run. */
export const DEFAULT_IDLE_LIMIT_SECONDS = 7 * 24 * 3600;

const flushMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Deterministic clock: time moves only when asked, timer by timer in (deadline, creation)
 * order, and only once every tracked promise (fetch, callback) has settled and the microtask
 * queue is drained. Timers sharing a deadline fire as one batch.
 */
export class VirtualClock extends IoTracking implements Clock {
  readonly kind = 'virtual' as const;
  private current: number;
  private seq = 0;
  private readonly heap = new TimerHeap();

  constructor(epoch: number = DEFAULT_EPOCH) {
    super();
    this.current = epoch;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    const timer: VirtualTimer = { deadline: this.current + delay, seq: this.seq++, fn };
    this.heap.push(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    (handle as VirtualTimer).fn = null;
  }

  /** Number of tracked promises not yet settled. */
  get pendingIo(): number {
    return this.inFlight;
  }

  /** Deadline of the next live timer, or undefined when none is pending. */
  nextDeadline(): number | undefined {
    this.dropCancelled();
    return this.heap.peek()?.deadline;
  }

  /** Waits for in-flight I/O and drained microtasks, repeatedly, until both are quiet. */
  async settle(): Promise<void> {
    do {
      await this.whenSettled();
      await flushMacrotask();
    } while (this.inFlight > 0);
  }

  /** Runs every timer due at or before `target` (ms since epoch), then sets the time to it. */
  async runUntil(target: number): Promise<void> {
    for (;;) {
      await this.settle();
      const next = this.nextDeadline();
      if (next === undefined || next > target) break;
      this.current = Math.max(this.current, next);
      this.fireDue(next);
    }
    if (target > this.current) this.current = target;
  }

  /** Advances the time by `seconds`, firing timers on the way. */
  advance(seconds: number): Promise<void> {
    return this.runUntil(this.current + seconds * 1000);
  }

  /**
   * Runs until no timer and no I/O is pending, or `limitSeconds` of virtual time have passed.
   * Returns true when idle was reached.
   */
  async runUntilIdle(limitSeconds: number = DEFAULT_IDLE_LIMIT_SECONDS): Promise<boolean> {
    const limit = this.current + limitSeconds * 1000;
    for (;;) {
      await this.settle();
      const next = this.nextDeadline();
      if (next === undefined) return true;
      if (next > limit) {
        this.current = limit;
        return false;
      }
      this.current = Math.max(this.current, next);
      this.fireDue(next);
    }
  }

  private fireDue(deadline: number): void {
    for (;;) {
      const top = this.heap.peek();
      if (!top || top.deadline !== deadline) return;
      this.heap.pop();
      const fn = top.fn;
      top.fn = null;
      if (fn) fn();
    }
  }

  private dropCancelled(): void {
    while (this.heap.size > 0 && this.heap.peek()!.fn === null) this.heap.pop();
  }
}
