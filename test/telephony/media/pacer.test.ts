/**
 * The media worker's one pacing loop: ticks are due at start + 20n whatever the timer's
 * lateness (drift-corrected), a late tick makes up at most five frames, and a longer stall
 * starts the schedule again rather than bursting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Histogram } from '../../../src/telephony/media/histogram.js';
import { Pacer } from '../../../src/telephony/media/pacer.js';

let now = 0;
/** The delays the loop asked its timers for. */
let delays: number[] = [];

beforeEach(() => {
  now = 1000;
  delays = [];
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const fakeSetTimeout = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
    delays.push(ms);
    return fakeSetTimeout(fn, ms);
  }) as typeof setTimeout);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The pending timer fires at `at` (the test's clock, ms since the loop started). */
function fireAt(at: number): void {
  now = 1000 + at;
  vi.runOnlyPendingTimers();
}

describe('the pacing loop', () => {
  it('asks each timer for the next due time, so a timer 3 ms late every time never adds up', () => {
    const lateness = new Histogram();
    let steps = 0;
    const pacer = new Pacer(() => steps++, lateness);
    pacer.run();
    for (let n = 0; n < 50; n++) fireAt(n * 20 + 3);
    expect(steps).toBe(50);
    // The first timer is due at once; every later one 17 ms after a tick 3 ms late, not 20.
    expect(delays[0]).toBe(0);
    expect(new Set(delays.slice(1))).toEqual(new Set([17]));
    expect(lateness.max).toBe(3);
    pacer.halt();
    expect(pacer.running).toBe(false);
  });

  it('makes up the frames of a short stall at once, and starts again after a long one', () => {
    let steps = 0;
    const pacer = new Pacer(() => steps++, new Histogram());
    pacer.run();
    fireAt(0);
    // 70 ms late for tick 1 (due at 20): ticks 1 to 4 (due 20, 40, 60, 80) run now.
    fireAt(90);
    expect(steps).toBe(5);
    expect(delays.at(-1)).toBe(10);
    // 300 ms late for tick 5 (due at 100): five frames, then a new schedule from now.
    fireAt(400);
    expect(steps).toBe(10);
    expect(delays.at(-1)).toBe(20);
    fireAt(420);
    expect(steps).toBe(11);
    pacer.halt();
  });
});
