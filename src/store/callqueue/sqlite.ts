import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/driver.js';
import type { CallQueueEventRepository, CallQueueNumberRepository, CallQueueStore } from './ports.js';
import { PhoneNumberTakenError } from './ports.js';
import { migrateCallQueue } from './sqlite-migrations.js';
import type { CallQueueEvent, CallQueueNumberRecord } from './types.js';

/** Options of {@link openSqliteCallQueueStore}. */
export interface SqliteCallQueueStoreOptions {
  /** Data directory: holds `callqueue.sqlite`. Created when missing. */
  dir: string;
  /** As the platform store: `process` (default, WAL + NORMAL) or `power` (FULL). */
  durability?: 'process' | 'power';
}

type Row = { data: string };

function sqliteNumbers(db: Database.Database): CallQueueNumberRepository {
  const parse = (row: Row | undefined) =>
    row === undefined ? undefined : (JSON.parse(row.data) as CallQueueNumberRecord);
  // `seq` keeps creation order across replacements: a replaced record keeps its place.
  const upsert = db.prepare(
    `INSERT INTO callqueue_numbers (sid, account_sid, phone_number, seq, data)
     VALUES (@sid, @accountSid, @phoneNumber, (SELECT COALESCE(MAX(seq), 0) + 1 FROM callqueue_numbers), @data)
     ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
       phone_number = excluded.phone_number, data = excluded.data`,
  );
  const get = db.prepare('SELECT data FROM callqueue_numbers WHERE sid = ? AND account_sid = ?');
  const byPhone = db.prepare('SELECT data FROM callqueue_numbers WHERE phone_number = ?');
  const list = db.prepare('SELECT data FROM callqueue_numbers WHERE account_sid = ? ORDER BY seq');
  const listAll = db.prepare('SELECT data FROM callqueue_numbers ORDER BY seq');
  const del = db.prepare('DELETE FROM callqueue_numbers WHERE sid = ? AND account_sid = ?');
  return {
    async put(number) {
      try {
        upsert.run({
          sid: number.sid,
          accountSid: number.accountSid,
          phoneNumber: number.phoneNumber,
          data: JSON.stringify(number),
        });
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new PhoneNumberTakenError(number.phoneNumber);
        }
        throw err;
      }
    },
    async get(accountSid, sid) {
      return parse(get.get(sid, accountSid) as Row | undefined);
    },
    async findByPhoneNumber(phoneNumber) {
      return parse(byPhone.get(phoneNumber) as Row | undefined);
    },
    async list(accountSid) {
      return (list.all(accountSid) as Row[]).map((r) => JSON.parse(r.data) as CallQueueNumberRecord);
    },
    async listAll() {
      return (listAll.all() as Row[]).map((r) => JSON.parse(r.data) as CallQueueNumberRecord);
    },
    async delete(accountSid, sid) {
      return del.run(sid, accountSid).changes > 0;
    },
  };
}

function sqliteEvents(db: Database.Database): CallQueueEventRepository {
  const insert = db.prepare(
    'INSERT INTO callqueue_events (account_sid, number_sid, call_sid, data) VALUES (?, ?, ?, ?)',
  );
  const byNumber = db.prepare(
    'SELECT id, data FROM callqueue_events WHERE account_sid = ? AND number_sid = ? ORDER BY id',
  );
  const byCall = db.prepare(
    'SELECT id, data FROM callqueue_events WHERE account_sid = ? AND number_sid = ? AND call_sid = ? ORDER BY id',
  );
  const read = (r: { id: number; data: string }): CallQueueEvent => ({ ...JSON.parse(r.data), id: r.id });
  return {
    async append(event) {
      const id = Number(
        insert.run(event.accountSid, event.numberSid, event.callSid, JSON.stringify(event)).lastInsertRowid,
      );
      return { ...event, id };
    },
    async list(accountSid, numberSid, filter = {}) {
      const rows =
        filter.callSid === undefined
          ? byNumber.all(accountSid, numberSid)
          : byCall.all(accountSid, numberSid, filter.callSid);
      return (rows as Array<{ id: number; data: string }>).map(read);
    },
  };
}

/**
 * Opens (or creates) the Call Queuing store of a data directory: its own SQLite file
 * (`callqueue.sqlite`, WAL) beside the platform's, migrated to the current schema.
 */
export function openSqliteCallQueueStore(options: SqliteCallQueueStoreOptions): CallQueueStore {
  mkdirSync(options.dir, { recursive: true });
  const file = join(options.dir, 'callqueue.sqlite');
  const db = openDatabase(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durability === 'power' ? 'FULL' : 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
    migrateCallQueue(db);
  } catch (err) {
    db.close();
    throw new Error(
      `cannot open the call queuing store in ${options.dir}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return {
    numbers: sqliteNumbers(db),
    events: sqliteEvents(db),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
