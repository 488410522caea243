import type { RecordSink } from '../engine/records.js';
import type { Store } from './ports.js';

/**
 * A {@link RecordSink} that persists every record the engine reports into a store. Messages
 * have no repository and are not kept.
 */
export function createStoreSink(store: Store): RecordSink {
  return {
    call: (call) => store.calls.put({ ...call }),
    recording: (recording, wav) => store.recordings.put({ ...recording }, wav),
    gather: (gather) => store.gathers.put({ ...gather }),
    notification: (notification) => store.notifications.put({ ...notification }),
  };
}
