/**
 * In-flight I/O accounting shared by both clocks: `track` counts a promise until it settles and
 * `whenSettled` resolves once none is left.
 */
export abstract class IoTracking {
  protected inFlight = 0;
  private idleWaiters: Array<() => void> = [];

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
