import type { CallRecord } from '../engine/records.js';
import type { Store } from './ports.js';
import type { SidFactory } from './sid.js';

/** Notification code of a call closed because the server stopped while it was live. */
export const INTERRUPTED_CALL_CODE = 'rcml.call-interrupted';

/**
 * Closes the calls a stopped server left live: an answered call becomes `completed`, any other
 * `failed`, both ending `now` with their duration; each gets a warning notification.
 * Returns the calls it closed.
 */
export async function closeInterruptedCalls(
  store: Store,
  now: number,
  sid: SidFactory,
): Promise<CallRecord[]> {
  const closed: CallRecord[] = [];
  for (const call of await store.calls.listLive()) {
    const answered = call.startTime !== undefined;
    const endTime = Math.max(now, call.startTime ?? now);
    const updated: CallRecord = {
      ...call,
      status: answered ? 'completed' : 'failed',
      endTime,
      duration: answered ? Math.ceil((endTime - (call.startTime as number)) / 1000) : 0,
      dateUpdated: now,
    };
    await store.calls.put(updated);
    await store.notifications.put({
      sid: sid('NO'),
      accountSid: call.accountSid,
      callSid: call.sid,
      code: INTERRUPTED_CALL_CODE,
      log: 1,
      message: `Call ${call.sid} was ${call.status} when the server stopped; marked ${updated.status} on restart`,
      dateCreated: now,
    });
    closed.push(updated);
  }
  return closed;
}
