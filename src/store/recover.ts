import type { CallRecord, ConferenceRecord } from '../engine/records.js';
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
  await closeInterruptedRooms(store, now, live === undefined ? undefined : new Set(closed.map((c) => c.sid)));
  return closed;
}

/**
 * Takes the closed calls out of the conference rooms they were in, and ends (`completed`, at
 * `now`) each room that has no participant left: its calls are over, so is the room. Without
 * `calls` (a store closing every live call), every room that has not ended is ended.
 */
export async function closeInterruptedRooms(
  store: Store,
  now: number,
  calls?: ReadonlySet<string>,
): Promise<ConferenceRecord[]> {
  const ended: ConferenceRecord[] = [];
  const writes: Promise<void>[] = [];
  for (const room of await store.conferences.listLive()) {
    const left = calls ? room.participants.filter((p) => !calls.has(p.callSid)) : [];
    // None of its calls was closed: its node runs it still.
    if (calls && left.length === room.participants.length) continue;
    const updated: ConferenceRecord = {
      ...room,
      participants: left,
      status: left.length === 0 ? 'completed' : room.status,
      dateUpdated: Math.max(now, room.dateUpdated),
    };
    writes.push(store.conferences.put(updated));
    if (updated.status === 'completed') ended.push(updated);
  }
  await Promise.all(writes);
  return ended;
}

function restartMessage(call: CallRecord, closed: CallRecord): string {
  return `rcml.call-interrupted: Call ${call.sid} was ${call.status} when the server stopped; marked ${closed.status} on restart`;
}
