import type { Histogram } from './histogram.js';

/** The frame period, ms. */
export const FRAME_MS = 20;
/** Ticks made up at once after a stall; beyond that the schedule starts again from now. */
const MAX_CATCH_UP = 5;

/**
 * ONE drift-corrected 20 ms loop for every call of the worker: tick n is due at start + 20n,
 * and each timer is set for the next due time, so errors do not add up (a timer per call was
 * measured 39-61 ms late at 200 calls). A late tick runs the missed frames at once, up to
 * five; it runs only while there are sessions.
 */
export class Pacer {
  private start = 0;
  private n = 0;
  private timer: NodeJS.Timeout | undefined;
  ticks = 0;

  constructor(
    private readonly step: () => void,
    private readonly lateness: Histogram,
  ) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  run(): void {
    if (this.timer) return;
    this.start = performance.now();
    this.n = 0;
    this.schedule();
  }

  halt(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const due = this.start + this.n * FRAME_MS;
    this.timer = setTimeout(() => this.fire(), Math.max(0, due - performance.now()));
  }

  private fire(): void {
    const now = performance.now();
    let due = this.start + this.n * FRAME_MS;
    this.lateness.add(now - due);
    let made = 0;
    while (due <= now && made < MAX_CATCH_UP) {
      this.step();
      this.ticks++;
      this.n++;
      made++;
      due += FRAME_MS;
    }
    if (due <= now) {
      // Too far behind: start the schedule again rather than burst.
      this.start = now;
      this.n = 1;
    }
    if (this.timer) this.schedule();
  }
}
