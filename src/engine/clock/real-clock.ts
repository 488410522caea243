import type { Clock, TimerHandle } from './clock.js';
import { IoTracking } from './io-tracking.js';

/** Wall-clock time for servers: plain timers, `track` only counts in-flight work. */
export class RealClock extends IoTracking implements Clock {
  readonly kind = 'real' as const;

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return setTimeout(fn, Math.max(0, ms));
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }
}
