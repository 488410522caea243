/**
 * The engine's time source: `setTimeout` / `clearTimeout` on its own time, for every timer of
 * the engine (ring timeouts, waits, plays), and it tracks in-flight I/O so a virtual clock
 * never jumps ahead of a pending fetch or callback.
 */
export interface Clock {
  /** Current time, ms since the Unix epoch. */
  now(): number;
  /** Calls `fn` after `ms` milliseconds of this clock's time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Registers I/O in flight; a virtual clock does not advance until it settles. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves when no tracked I/O is in flight. */
  whenSettled(): Promise<void>;
  readonly kind: 'virtual' | 'real';
}

/** Opaque timer handle. */
export type TimerHandle = object;
