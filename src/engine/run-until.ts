import type { Call } from './call.js';
import type { Clock } from './clock/clock.js';
import { VirtualClock } from './clock/virtual-clock.js';
import { EngineError } from './errors.js';
import type { Runtime } from './runtime.js';
import type { EngineEvent } from './types.js';

/** `clock` as the virtual clock it must be to advance time; throws `clock-not-virtual` otherwise. */
export function virtualClock(clock: Clock): VirtualClock {
  if (!(clock instanceof VirtualClock)) {
    throw new EngineError('clock-not-virtual', 'this engine runs on the real clock; time cannot be advanced');
  }
  return clock;
}

/**
 * Runs virtual time until the call starts the verb `verb` (nested prompts count), for at most
 * `limitSeconds`. True when it did; false when the call ended, nothing was left to run, or the
 * limit passed first.
 */
export function runUntilVerb(
  rt: Runtime<Call>,
  callSid: string,
  verb: string,
  limitSeconds?: number,
): Promise<boolean> {
  let hit = false;
  return runWatching(
    rt,
    (e) => {
      if (e.type === 'verb' && e.callSid === callSid && e.verb === verb) hit = true;
    },
    () => hit,
    callSid,
    limitSeconds,
  );
}

/**
 * Runs virtual time until the call waits for party input (a Gather or Record listening), for at
 * most `limitSeconds`. True when it does; false when it ended, nothing was left to run, or the
 * limit passed first.
 */
export function runUntilWaitingForInput(
  rt: Runtime<Call>,
  callSid: string,
  limitSeconds?: number,
): Promise<boolean> {
  return runWatching(rt, undefined, () => rt.live.get(callSid)?.listening === true, callSid, limitSeconds);
}

/** Runs deadline by deadline until `done()` or the call ends; `watch` sees every event meanwhile. */
async function runWatching(
  rt: Runtime<Call>,
  watch: ((e: EngineEvent) => void) | undefined,
  done: () => boolean,
  callSid: string,
  limitSeconds = 24 * 3600,
): Promise<boolean> {
  const clock = virtualClock(rt.clock);
  const limit = clock.now() + limitSeconds * 1000;
  const user = rt.listener;
  if (watch) {
    rt.listener = (e) => {
      user?.(e);
      watch(e);
    };
  }
  try {
    for (;;) {
      await clock.settle();
      if (done()) return true;
      if (!rt.live.has(callSid) && rt.records.has(callSid)) return false;
      const next = clock.nextDeadline();
      if (next === undefined || next > limit) return false;
      await clock.runUntil(next);
    }
  } finally {
    if (watch) rt.listener = user;
  }
}
