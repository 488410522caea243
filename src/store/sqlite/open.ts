import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../ports.js';
import { closeInterruptedCalls } from '../recover.js';
import type { Prunable } from '../retention.js';
import { randomSid, type SidFactory } from '../sid.js';
import type { WriteQueueOptions } from '../write-queue.js';
import { sqliteCalls } from './calls.js';
import { sqliteClients } from './clients.js';
import { sqliteConferences } from './conferences.js';
import { openDatabase } from './driver.js';
import { migrate } from './migrations.js';
import { sqlitePruner } from './prune.js';
import { sqliteRecordings } from './recordings.js';
import { sqliteAccounts, sqliteApplications, sqliteGathers, sqliteNotifications } from './records.js';
import { createSqliteWriter } from './writer.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Data directory: holds `rcml.sqlite` and `recordings/`. Created when missing. */
  dir: string;
  /**
   * `process` (default): a committed write survives a crash of the process (WAL,
   * `synchronous=NORMAL`). `power`: it also survives an OS crash or power loss
   * (`synchronous=FULL`, one fsync per commit).
   */
  durability?: 'process' | 'power';
  /** Clock used to close calls left live by a stopped server. Default `Date.now`. */
  now?: () => number;
  /** Sids of the notifications written on open. Default random. */
  sids?: SidFactory;
  /**
   * Close calls left live by a stopped server (default true). False for a tool that opens the
   * data directory beside a running server (e.g. to rotate a token), whose calls are live.
   */
  closeInterrupted?: boolean;
  /** Batch size, queue bound and retry timing of the write queue (see `WriteQueue`). */
  writes?: WriteQueueOptions;
}

/** A SQLite store, plus what opening it found. */
export interface SqliteStore extends Store, Prunable {
  /** Sids of calls that were live when the database was last closed, now closed. */
  readonly interruptedCalls: readonly string[];
  /** Path of the database file. */
  readonly file: string;
}

/**
 * Opens (or creates) the store of a data directory: one SQLite file in WAL mode, migrated to the
 * current schema, with recordings' WAV files beside it. Calls left live by a previous process
 * are closed (see `closeInterruptedCalls`).
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  mkdirSync(options.dir, { recursive: true });
  const file = join(options.dir, 'rcml.sqlite');
  const db = openDatabase(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durability === 'power' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 32 MiB of page cache (default 2 MiB): the calls table has many indexes, each written at
    // its own place on every insert; a small cache keeps evicting and re-reading their pages.
    db.pragma('cache_size = -32768');
    migrate(db);
  } catch (err) {
    db.close();
    throw new Error(
      `cannot open the store in ${options.dir}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const writer = createSqliteWriter(db, options.writes);
  const calls = sqliteCalls(db, writer);
  const store: Store & Prunable = {
    accounts: sqliteAccounts(db, writer),
    calls,
    recordings: sqliteRecordings(db, options.dir, writer),
    gathers: sqliteGathers(db, writer),
    notifications: sqliteNotifications(db, writer),
    applications: sqliteApplications(db, writer),
    conferences: sqliteConferences(db, writer),
    clients: sqliteClients(db, writer),
    pruneBatch: sqlitePruner(db, options.dir, calls.removed),
    writes: writer,
    close: async () => {
      writer.flushNow();
      writer.close();
      if (db.open) db.close();
    },
  };
  if (options.closeInterrupted === false) return { ...store, interruptedCalls: [], file };
  // The repair's writes, all queued in one turn, commit in one transaction.
  let closed: Awaited<ReturnType<typeof closeInterruptedCalls>>;
  try {
    closed = await closeInterruptedCalls(store, (options.now ?? Date.now)(), options.sids ?? randomSid);
  } catch (err) {
    await store.close();
    throw err;
  }
  return { ...store, interruptedCalls: closed.map((c) => c.sid), file };
}
