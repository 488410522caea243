import type Database from 'better-sqlite3';
import { WriteQueue, type WriteQueueOptions } from '../write-queue.js';

/** One write of a SQLite repository: runs inside the batch's transaction. */
export interface SqliteWrite {
  run(): unknown;
  /** Told once the transaction that ran it has committed. */
  committed?(): void;
}

// Errors that say the database cannot write for now, not that the write is bad: a full disk,
// an I/O error, a lock held too long; and the same from the file system for recordings' files.
const TRANSIENT_SQLITE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL|READONLY)/;
const TRANSIENT_FS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EROFS']);

/** Whether an error of a SQLite write (or of a file written with it) is worth retrying. */
export function transientSqliteError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (TRANSIENT_SQLITE.test(code) || TRANSIENT_FS.has(code));
}

/**
 * The write queue of a SQLite store: each batch in one immediate transaction. The committer is
 * synchronous, so `flushNow` commits on the spot (readers call it first).
 */
export function createSqliteWriter(
  db: Database.Database,
  options: WriteQueueOptions = {},
): WriteQueue<SqliteWrite> {
  const transaction = db.transaction((batch: readonly SqliteWrite[]) => batch.map((w) => w.run()));
  return new WriteQueue<SqliteWrite>(
    (batch) => {
      const results = transaction.immediate(batch);
      for (const w of batch) w.committed?.();
      return results;
    },
    { transient: transientSqliteError, delayMs: 5, ...options },
  );
}

/**
 * One repository's writes through the store's queue, counted, so that its reads commit the
 * queue first only when one of its own writes waits there (a read of another table, like an
 * account read on every request, does not cut the group short).
 */
export class RepositoryWrites {
  private waiting = 0;

  constructor(private readonly queue: WriteQueue<SqliteWrite>) {}

  write<T = unknown>(write: SqliteWrite, options: { failFast?: boolean } = {}): Promise<T> {
    this.waiting++;
    const done = this.queue.write<T>(write, options);
    const settle = () => {
      this.waiting--;
    };
    done.then(settle, settle);
    return done;
  }

  /** Before a read: commits what is queued when a write of this repository may wait there. */
  flush(): void {
    if (this.waiting > 0) this.queue.flushNow();
  }
}
