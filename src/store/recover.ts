import type { CallRecord } from '../engine/records.js';
import type { Store } from './ports.js';
import type { SidFactory } from './sid.js';

/**
 * Notification code of a call closed because the server stopped while it was live (numeric,
 * as every notification's; docs/engine.md "Notification codes").
 */
export const INTERRUPTED_CALL_CODE = '12401';

/**
 * Closes the calls a stopped server left live (by default every live call of the store; a node
 * of a cluster passes those it owned): an answered call becomes `completed`, any other
 * `failed`, both ending `now` with their duration; each gets a warning notification, whose text
 * `message` may word (default: the server stopped, the call was closed on restart).
 * Returns the calls it closed.
 */
export async function closeInterruptedCalls(
  store: Store,
  now: number,
  sid: SidFactory,
  live?: readonly CallRecord[],
  message: (call: CallRecord, closed: CallRecord) => string = restartMessage,
): Promise<CallRecord[]> {
  const closed: CallRecord[] = [];
  // Started together, the writes of a store with group commit land in one transaction.
  const writes: Promise<void>[] = [];
  for (const call of live ?? (await store.calls.listLive())) {
    const answered = call.startTime !== undefined;
    const endTime = Math.max(now, call.startTime ?? now);
    const updated: CallRecord = {
      ...call,
      status: answered ? 'completed' : 'failed',
      endTime,
      duration: answered ? Math.ceil((endTime - (call.startTime as number)) / 1000) : 0,
      dateUpdated: now,
    };
    writes.push(store.calls.put(updated));
    writes.push(
      store.notifications.put({
        sid: sid('NO'),
        accountSid: call.accountSid,
        callSid: call.sid,
        code: INTERRUPTED_CALL_CODE,
        log: 1,
        message: message(call, updated),
        dateCreated: now,
      }),
    );
    closed.push(updated);
  }
  await Promise.all(writes);
  return closed;
}

function restartMessage(call: CallRecord, closed: CallRecord): string {
  return `rcml.call-interrupted: Call ${call.sid} was ${call.status} when the server stopped; marked ${closed.status} on restart`;
}
