import type Database from 'better-sqlite3';
import type { GatherRecord, NotificationRecord } from '../../engine/records.js';
import type {
  AccountRepository,
  ApplicationRepository,
  GatherRepository,
  NotificationRepository,
} from '../ports.js';
import type { AccountRecord, ApplicationRecord } from '../types.js';
import { pageQuery } from './paging.js';

const parse = <T>(data: unknown): T | undefined =>
  data === undefined ? undefined : (JSON.parse(data as string) as T);

export function sqliteAccounts(db: Database.Database): AccountRepository {
  const upsert = db.prepare(
    'INSERT INTO accounts (sid, date_created, data) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data',
  );
  const getOne = db.prepare('SELECT data FROM accounts WHERE sid = ?').pluck();
  const all = db.prepare('SELECT data FROM accounts ORDER BY date_created, sid').pluck();
  return {
    put: async (a) => void upsert.run(a.sid, a.dateCreated, JSON.stringify(a)),
    get: async (sid) => parse<AccountRecord>(getOne.get(sid)),
    list: async () => (all.all() as string[]).map((d) => JSON.parse(d) as AccountRecord),
  };
}

export function sqliteGathers(db: Database.Database): GatherRepository {
  const upsert = db.prepare(`INSERT INTO gathers (sid, account_sid, kind, call_sid, date_created, data)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
    kind = excluded.kind, call_sid = excluded.call_sid, date_created = excluded.date_created, data = excluded.data`);
  const getOne = db
    .prepare('SELECT data FROM gathers WHERE sid = ? AND account_sid = ? AND kind = ?')
    .pluck();
  return {
    put: async (g) =>
      void upsert.run(g.sid, g.accountSid, g.kind, g.callSid, g.dateCreated, JSON.stringify(g)),
    get: async (accountSid, kind, sid) => parse<GatherRecord>(getOne.get(sid, accountSid, kind)),
    list: async (q) => {
      const parts = ['account_sid = ?', 'kind = ?'];
      const params: unknown[] = [q.accountSid, q.kind];
      if (q.callSid !== undefined) parts.push('call_sid = ?') && params.push(q.callSid);
      if (q.createdFrom !== undefined) parts.push('date_created >= ?') && params.push(q.createdFrom);
      if (q.createdTo !== undefined) parts.push('date_created <= ?') && params.push(q.createdTo);
      return pageQuery<GatherRecord>(db, 'gathers', parts, params, q);
    },
  };
}

export function sqliteNotifications(db: Database.Database): NotificationRepository {
  const upsert = db.prepare(`INSERT INTO notifications (sid, account_sid, call_sid, date_created, data)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data`);
  const getOne = db.prepare('SELECT data FROM notifications WHERE sid = ? AND account_sid = ?').pluck();
  return {
    put: async (n) =>
      void upsert.run(n.sid, n.accountSid, n.callSid ?? null, n.dateCreated, JSON.stringify(n)),
    get: async (accountSid, sid) => parse<NotificationRecord>(getOne.get(sid, accountSid)),
    list: async (q) => {
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

export function sqliteApplications(db: Database.Database): ApplicationRepository {
  const upsert = db.prepare(
    'INSERT INTO applications (sid, account_sid, data) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid, data = excluded.data',
  );
  const getOne = db.prepare('SELECT data FROM applications WHERE sid = ? AND account_sid = ?').pluck();
  const deleteOne = db.prepare('DELETE FROM applications WHERE sid = ? AND account_sid = ?');
  return {
    put: async (a) => void upsert.run(a.sid, a.accountSid, JSON.stringify(a)),
    get: async (accountSid, sid) => parse<ApplicationRecord>(getOne.get(sid, accountSid)),
    delete: async (accountSid, sid) => deleteOne.run(sid, accountSid).changes > 0,
  };
}
