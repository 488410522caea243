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
 * `message` may word (default: the server stopped, the call was closed on restart). The
 * conference rooms it ran end too (see {@link closeInterruptedRooms}: every live room of the
 * store by default; with `live` given, the `rooms` given). Returns the calls it closed.
 */
export async function closeInterruptedCalls(
  store: Store,
  now: number,
  sid: SidFactory,
  live?: readonly CallRecord[],
  message: (call: CallRecord, closed: CallRecord) => string = restartMessage,
  rooms?: readonly ConferenceRecord[],
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
  await closeInterruptedRooms(store, now, live === undefined ? undefined : (rooms ?? []));
  return closed;
}

/**
 * Ends the conference rooms a stopped server ran (by default every room of the store that has
 * not ended; a node of a cluster passes those it ran): `completed` at `now`, with no
 * participant. Their node is gone, so are they: the calls of other nodes in them leave as from
 * a room that ended. Returns the rooms it ended.
 */
export async function closeInterruptedRooms(
  store: Store,
  now: number,
  rooms?: readonly ConferenceRecord[],
): Promise<ConferenceRecord[]> {
  const ended: ConferenceRecord[] = [];
  for (const room of rooms ?? (await store.conferences.listLive())) {
    ended.push({
      ...room,
      participants: [],
      status: 'completed',
      dateUpdated: Math.max(now, room.dateUpdated),
    });
  }
  // Started together, the writes of a store with group commit land in one transaction.
  await Promise.all(ended.map((room) => store.conferences.put(room)));
  return ended;
}

function restartMessage(call: CallRecord, closed: CallRecord): string {
  return `rcml.call-interrupted: Call ${call.sid} was ${call.status} when the server stopped; marked ${closed.status} on restart`;
}
