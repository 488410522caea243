import type { EngineQueueEvent } from '../engine/queues/events.js';

/** A queue event in a trace: `at` in seconds since the scenario start, without the account. */
export type TraceQueueEvent = { at: number } & DistributiveOmit<EngineQueueEvent, 'at' | 'accountSid'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One readable line for the timeline. */
export function describeQueueEvent(e: EngineQueueEvent): string {
  const q = `'${e.queueName}'`;
  switch (e.type) {
    case 'enqueue':
      return `${q}: waits on the ${e.side} side at position ${e.position} (size ${e.size})`;
    case 'position-change':
      return `${q}: ${e.side} side moves up from position ${e.vacated} (size ${e.size})`;
    case 'match':
      return `${q}: ${e.arriving.callSid} takes ${e.waiting.callSid} (waited ${e.waiting.waitMs / 1000} s)`;
    case 'leave':
      return `${q}: ${e.callSid} leaves (${e.reason}) from position ${e.position} after ${e.waitMs / 1000} s`;
    case 'timeout':
      return `${q}: ${e.callSid} times out at position ${e.position} after ${e.waitMs / 1000} s`;
    case 'queue-full':
      return `${q}: full (${e.size}/${e.maxSize}), ${e.callSid} refused`;
    case 'rejoin':
      return `${q}: ${e.callSid} rejoins the queue`;
    case 'drop':
      return `${q}: ${e.callSid} dropped`;
    case 'wait-loop':
      return `${q}: wait round ${e.iteration}${e.url ? ` (${e.url})` : ''}`;
    case 'join':
      return `${q}: join document ${e.url}`;
    case 'bridge':
      return `${q}: ${e.callSid} connected with ${e.partnerCallSid}`;
    case 'bridge-end':
      return `${q}: ${e.callSid} and ${e.partnerCallSid} ${e.bridged ? `disconnected after ${e.duration} s` : 'never connected'} (${e.endedBy})`;
  }
}
