import type { RecordSink } from '../engine/records.js';
import type { Store } from './ports.js';

/** A {@link RecordSink} over a store, with a way to wait for the writes it started. */
export interface StoreSink extends RecordSink {
  /** Resolves once every write reported so far has finished (failed ones included). */
  settled(): Promise<void>;
}

/**
 * A {@link RecordSink} that persists every record the engine reports into a store. The engine
 * reports synchronously; each report starts the store's write at once (so a store that writes
 * before its promise returns, like memory and SQLite, keeps the engine's order exactly), and a
 * failed write goes to `onError` instead of being lost silently. Messages have no repository
 * and are not kept.
 */
export function createStoreSink(
  store: Store,
  onError: (err: unknown) => void = (err) => console.error('rcml: a record could not be stored:', err),
): StoreSink {
  const pending = new Set<Promise<void>>();
  const track = (write: Promise<void>) => {
    const tracked = write.catch(onError).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  return {
    call: (call) => track(store.calls.put({ ...call })),
    recording: (recording, wav) => track(store.recordings.put({ ...recording }, wav)),
    gather: (gather) => track(store.gathers.put({ ...gather })),
    notification: (notification) => track(store.notifications.put({ ...notification })),
    settled: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
