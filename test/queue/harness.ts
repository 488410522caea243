import type { QueueEvent } from '../../src/queue/events.js';
import { QueueMatcher, type QueueMatcherOptions } from '../../src/queue/matcher.js';
import { seededQueueSids } from '../../src/queue/sid.js';

/** A matcher on a hand-driven clock that records its events. */
export function makeMatcher(options: Partial<QueueMatcherOptions> = {}) {
  const clock = { now: 1_000_000 };
  const events: QueueEvent[] = [];
  const matcher = new QueueMatcher({
    clock: () => clock.now,
    newSid: seededQueueSids(1),
    listener: (e) => events.push(e),
    ...options,
  });
  return { matcher, clock, events };
}

export const ACCOUNT = 'AC00000000000000000000000000000001';
