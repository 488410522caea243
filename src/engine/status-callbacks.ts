import type { HttpMethod } from '../rcml/model.js';
import { rfc2822 } from './dates.js';

/** Call progress events a status callback may subscribe to. */
export const CALL_EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const;
export type CallEventName = (typeof CALL_EVENTS)[number];

/** Where and for which events a call reports progress. */
export interface StatusCallbackConfig {
  url: string;
  method: HttpMethod;
  events: ReadonlySet<CallEventName>;
}

/**
 * Reads `StatusCallbackEvent` (comma-separated or array). Without events, `completed` alone.
 * Returns an error message naming the bad value instead of throwing.
 */
export function parseCallEvents(
  value: string | ReadonlyArray<string> | undefined,
): Set<CallEventName> | string {
  const list = value === undefined ? [] : typeof value === 'string' ? value.split(/[\s,]+/) : value;
  const events = new Set<CallEventName>();
  for (const raw of list) {
    const name = raw.trim().toLowerCase();
    if (!name) continue;
    if (!(CALL_EVENTS as readonly string[]).includes(name)) {
      return `StatusCallbackEvent: unknown event '${raw}' (expected ${CALL_EVENTS.join(', ')})`;
    }
    events.add(name as CallEventName);
  }
  if (events.size === 0) events.add('completed');
  return events;
}

/** Parameters a status callback adds to the voice parameters. */
export function callbackParams(
  base: Record<string, string>,
  at: number,
  sequence: number,
  duration: number | undefined,
): Record<string, string> {
  const params: Record<string, string> = {
    ...base,
    Timestamp: rfc2822(at),
    CallbackSource: 'call-progress-events',
  };
  params.SequenceNumber = String(sequence);
  if (duration !== undefined) params.CallDuration = String(duration);
  return params;
}
