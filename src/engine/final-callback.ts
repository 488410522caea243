/**
 * The final status callback of a call this engine did not run to its end: a call of a dead
 * node of a cluster, closed by this one (see `src/cluster/takeover.ts`). Sent once, by the
 * node that closed the call, as the call's own node would have sent it.
 */
import { voiceParams } from './params.js';
import type { CallRecord } from './records.js';
import type { Runtime } from './runtime.js';
import { callbackParams } from './status-callbacks.js';

/**
 * Sends `closed`'s `completed` callback when its status callback asks for it; resolves with
 * the HTTP status (0 when it failed, undefined when none was due). `SequenceNumber` counts the
 * callbacks the call's progress had already been due (initiated, ringing, answered).
 */
export async function sendFinalCallback(
  rt: Pick<Runtime<never>, 'request'>,
  closed: Readonly<CallRecord>,
  at: number,
): Promise<number | undefined> {
  const cb = closed.statusCallback;
  if (!cb?.events.includes('completed')) return undefined;
  const reached = {
    initiated: closed.direction !== 'inbound',
    ringing: closed.direction !== 'inbound',
    answered: closed.startTime !== undefined,
    completed: false,
  };
  const sequence = cb.events.filter((e) => reached[e]).length;
  const params = callbackParams(voiceParams(closed), at, sequence, closed.duration);
  const res = await rt.request(closed.sid, 'status-callback', cb.url, cb.method, params, 'callback', true);
  return res.status;
}
