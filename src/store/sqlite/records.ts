import type Database from 'better-sqlite3';
import type { GatherRecord, NotificationRecord } from '../../engine/records.js';
import type {
  AccountRepository,
  ApplicationRepository,
  GatherRepository,
  NotificationRepository,
} from '../ports.js';
import type { AccountRecord, ApplicationRecord } from '../types.js';
import type { WriteQueue } from '../write-queue.js';
import { pageQuery } from './paging.js';
import { RepositoryWrites, type SqliteWrite } from './writer.js';

type Writer = WriteQueue<SqliteWrite>;

const parse = <T>(data: unknown): T | undefined =>
  data === undefined ? undefined : (JSON.parse(data as string) as T);

/** Whether every field of a parsed record is a primitive (no object a caller could change). */
const isFlat = (record: object) => Object.values(record).every((v) => v === null || typeof v !== 'object');

/** Accounts whose stored record the repository keeps in memory, at most. */
const CACHED_ACCOUNTS = 1000;

/**
 * Accounts over SQLite. Every API request and webhook reads its account: the records of the
 * accounts read lately are kept parsed (each read answers a copy), and used as long as nothing
 * else wrote the database since (`PRAGMA data_version`, one cheap step, moves on with every
 * commit of another connection, such as `rcml account` beside a running server); this
 * repository's own writes replace them.
 */
export function sqliteAccounts(db: Database.Database, writer: Writer): AccountRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(
    'INSERT INTO accounts (sid, date_created, data) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data',
  );
  const getOne = db.prepare('SELECT data FROM accounts WHERE sid = ?').pluck();
  const all = db.prepare('SELECT data FROM accounts ORDER BY date_created, sid').pluck();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  // Absent accounts are not kept: a probe of unknown sids would fill the cache with them.
  const cached = new Map<string, AccountRecord>();
  return {
    put: async (a) => {
      const data = JSON.stringify(a);
      await writes.write(
        {
          run: () => {
            cached.delete(a.sid);
            return upsert.run(a.sid, a.dateCreated, data);
          },
        },
        { failFast: true },
      );
    },
    get: async (sid) => {
      writes.flush();
      const version = dataVersion.get();
      if (version !== seenVersion) {
        seenVersion = version;
        cached.clear();
      }
      let record = cached.get(sid);
      if (record === undefined) {
        record = parse<AccountRecord>(getOne.get(sid));
        if (record === undefined) return undefined;
        // Only a flat record is kept: a copy of its fields is then as good as a new parse.
        if (!isFlat(record)) return record;
        if (cached.size >= CACHED_ACCOUNTS) cached.delete(cached.keys().next().value as string);
        cached.set(sid, record);
      }
      return { ...record };
    },
    list: async () => {
      writes.flush();
      return (all.all() as string[]).map((d) => JSON.parse(d) as AccountRecord);
    },
  };
}

export function sqliteGathers(db: Database.Database, writer: Writer): GatherRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(`INSERT INTO gathers (sid, account_sid, kind, call_sid, date_created, data)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
    kind = excluded.kind, call_sid = excluded.call_sid, date_created = excluded.date_created, data = excluded.data`);
  const getOne = db
    .prepare('SELECT data FROM gathers WHERE sid = ? AND account_sid = ? AND kind = ?')
    .pluck();
  return {
    put: async (g) => {
      const data = JSON.stringify(g);
      await writes.write({
        run: () => upsert.run(g.sid, g.accountSid, g.kind, g.callSid, g.dateCreated, data),
      });
    },
    get: async (accountSid, kind, sid) => {
      writes.flush();
      return parse<GatherRecord>(getOne.get(sid, accountSid, kind));
    },
    list: async (q) => {
      writes.flush();
      const parts = ['account_sid = ?', 'kind = ?'];
      const params: unknown[] = [q.accountSid, q.kind];
      if (q.callSid !== undefined) parts.push('call_sid = ?') && params.push(q.callSid);
      if (q.createdFrom !== undefined) parts.push('date_created >= ?') && params.push(q.createdFrom);
      if (q.createdTo !== undefined) parts.push('date_created <= ?') && params.push(q.createdTo);
      return pageQuery<GatherRecord>(db, 'gathers', parts, params, q);
    },
  };
}

export function sqliteNotifications(db: Database.Database, writer: Writer): NotificationRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(`INSERT INTO notifications (sid, account_sid, call_sid, date_created, data)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data`);
  const getOne = db.prepare('SELECT data FROM notifications WHERE sid = ? AND account_sid = ?').pluck();
  return {
    put: async (n) => {
      const data = JSON.stringify(n);
      await writes.write({
        run: () => upsert.run(n.sid, n.accountSid, n.callSid ?? null, n.dateCreated, data),
      });
    },
    get: async (accountSid, sid) => {
      writes.flush();
      return parse<NotificationRecord>(getOne.get(sid, accountSid));
    },
    list: async (q) => {
      writes.flush();
      const parts = ['account_sid = ?'];
      const params: unknown[] = [q.accountSid];
      if (q.callSid !== undefined) parts.push('call_sid = ?') && params.push(q.callSid);
      // The level is read from the stored record (it has no column): the account index has
      // already narrowed the rows to the account's notifications.
      if (q.log !== undefined) parts.push("json_extract(data, '$.log') = ?") && params.push(q.log);
      if (q.createdFrom !== undefined) parts.push('date_created >= ?') && params.push(q.createdFrom);
      if (q.createdTo !== undefined) parts.push('date_created <= ?') && params.push(q.createdTo);
      return pageQuery<NotificationRecord>(db, 'notifications', parts, params, q);
    },
  };
}

export function sqliteApplications(db: Database.Database, writer: Writer): ApplicationRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(
    'INSERT INTO applications (sid, account_sid, data) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid, data = excluded.data',
  );
  const getOne = db.prepare('SELECT data FROM applications WHERE sid = ? AND account_sid = ?').pluck();
  const deleteOne = db.prepare('DELETE FROM applications WHERE sid = ? AND account_sid = ?');
  return {
    put: async (a) => {
      const data = JSON.stringify(a);
      await writes.write({ run: () => upsert.run(a.sid, a.accountSid, data) }, { failFast: true });
    },
    get: async (accountSid, sid) => {
      writes.flush();
      return parse<ApplicationRecord>(getOne.get(sid, accountSid));
    },
    delete: (accountSid, sid) =>
      writes.write<boolean>({ run: () => deleteOne.run(sid, accountSid).changes > 0 }, { failFast: true }),
  };
}
