/**
 * A store double whose writes fail on demand, as a full disk would: a memory store behind a
 * {@link WriteQueue} (the group commit of the SQLite and PostgreSQL stores), whose commits throw
 * an `ENOSPC` error while `failing` is set. Reads answer from what is committed.
 */

import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { WriteQueue, type WriteQueueOptions } from '../../src/store/write-queue.js';

type Write = () => Promise<unknown>;

export interface FailingStore {
  store: Store;
  /** Writes fail from now on (true) or commit again (false). */
  failing: boolean;
  /** Commits attempted while failing. */
  refusedCommits: number;
}

export function createFailingStore(options: WriteQueueOptions = {}): FailingStore {
  const memory = createMemoryStore();
  const double: FailingStore = { store: memory, failing: false, refusedCommits: 0 };
  const queue = new WriteQueue<Write>(
    async (batch) => {
      if (double.failing) {
        double.refusedCommits++;
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      }
      const results: unknown[] = [];
      for (const w of batch) results.push(await w());
      return results;
    },
    {
      transient: (err) => (err as { code?: string }).code === 'ENOSPC',
      retryMs: { first: 5, max: 20 },
      ...options,
    },
  );
  const clientWrite = { failFast: true };
  double.store = {
    ...memory,
    accounts: { ...memory.accounts, put: (a) => queue.write(() => memory.accounts.put(a), clientWrite) },
    calls: {
      ...memory.calls,
      put: (c) => {
        const copy = structuredClone(c);
        return queue.write(() => memory.calls.put(copy));
      },
      putMany: (calls) => {
        const copy = structuredClone(calls);
        return queue.write(() => memory.calls.putMany(copy));
      },
    },
    recordings: {
      ...memory.recordings,
      put: (r, wav) => queue.write(() => memory.recordings.put(r, wav)),
      delete: (a, s) => queue.write(() => memory.recordings.delete(a, s), clientWrite),
    },
    gathers: { ...memory.gathers, put: (g) => queue.write(() => memory.gathers.put(g)) },
    notifications: { ...memory.notifications, put: (n) => queue.write(() => memory.notifications.put(n)) },
    applications: {
      ...memory.applications,
      put: (a) => queue.write(() => memory.applications.put(a), clientWrite),
      delete: (a, s) => queue.write(() => memory.applications.delete(a, s), clientWrite),
    },
    clients: {
      ...memory.clients,
      put: (c) => queue.write(() => memory.clients.put(c), clientWrite),
      delete: (a, s) => queue.write(() => memory.clients.delete(a, s), clientWrite),
    },
    writes: queue,
    close: async () => {
      queue.close();
      await memory.close();
    },
  } as Store;
  return double;
}
