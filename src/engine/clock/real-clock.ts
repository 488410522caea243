import type { Clock, TimerHandle } from './clock.js';

/** Wall-clock time for servers: plain timers, `track` only counts in-flight work. */
export class RealClock implements Clock {
  readonly kind = 'real' as const;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return setTimeout(fn, Math.max(0, ms));
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    work.then(this.release, this.release);
    return work;
  }

  private readonly release = (): void => {
    if (--this.inFlight === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  whenSettled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
