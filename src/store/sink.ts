import type { RecordSink } from '../engine/records.js';
import type { Store } from './ports.js';
import { StoreOverflowError, StoreUnavailableError } from './write-queue.js';

/** A {@link RecordSink} over a store, with ways to wait for the writes it started. */
export interface StoreSink extends RecordSink {
  /** Resolves once every write reported so far has finished (failed ones included). */
  settled(): Promise<void>;
  /**
   * Resolves once the latest record reported of the call is committed. Rejects with a
   * {@link StoreUnavailableError} when the store stops writing before that (the record stays
   * queued and is written once the store recovers), or with the write's own error.
   */
  written(callSid: string): Promise<void>;
}

/**
 * A {@link RecordSink} that persists every record the engine reports into a store. The engine
 * reports synchronously; each report queues the store's write at once and never throws, so a
 * store that cannot write never reaches a call. A failed write goes to `onError` instead of
 * being lost silently (writes refused because the queue of an unwritable store is full are
 * counted and reported by the store itself). Messages have no repository and are not kept.
 */
export function createStoreSink(
  store: Store,
  onError: (err: unknown) => void = (err) => console.error('rcml: a record could not be stored:', err),
): StoreSink {
  const pending = new Set<Promise<void>>();
  const calls = new Map<string, Promise<void>>();
  // One pair of handlers per write (a call's record is written four or five times).
  const start = (write: () => Promise<void>, after?: () => void): Promise<void> => {
    let started: Promise<void>;
    try {
      started = write();
    } catch (err) {
      started = Promise.reject(err);
    }
    pending.add(started);
    started.then(
      () => {
        pending.delete(started);
        after?.();
      },
      (err) => {
        pending.delete(started);
        after?.();
        if (!(err instanceof StoreOverflowError)) onError(err);
      },
    );
    return started;
  };
  return {
    call: (call) => {
      const sid = call.sid;
      const write: Promise<void> = start(
        () => store.calls.put({ ...call }),
        () => {
          if (calls.get(sid) === write) calls.delete(sid);
        },
      );
      calls.set(sid, write);
    },
    recording: (recording, wav) => void start(() => store.recordings.put({ ...recording }, wav)),
    gather: (gather) => void start(() => store.gathers.put({ ...gather })),
    notification: (notification) => void start(() => store.notifications.put({ ...notification })),
    conference: (room) => void start(() => store.conferences.put(structuredClone(room))),
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled(pending);
    },
    written: (callSid) => {
      const write = calls.get(callSid);
      const writes = store.writes;
      if (!write || !writes) return write ?? Promise.resolve();
      if (!writes.writable) return Promise.reject(new StoreUnavailableError('the store cannot write'));
      return new Promise<void>((resolve, reject) => {
        const stop = writes.onState((state) => {
          if (state.writable) return;
          stop();
          reject(new StoreUnavailableError(`the store cannot write: ${state.error ?? 'unknown error'}`));
        });
        write.then(
          () => {
            stop();
            resolve();
          },
          (err) => {
            stop();
            reject(err);
          },
        );
      });
    },
  };
}
