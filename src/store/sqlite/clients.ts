import type Database from 'better-sqlite3';
import { type ClientRepository, DuplicateLoginError } from '../ports.js';
import type { ClientRecord } from '../types.js';
import type { WriteQueue } from '../write-queue.js';
import { pageQuery } from './paging.js';
import { RepositoryWrites, type SqliteWrite } from './writer.js';

const isUniqueViolation = (err: unknown) =>
  (err as { code?: unknown } | undefined)?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Clients over SQLite; the unique index on (account, login) refuses a taken login. */
export function sqliteClients(db: Database.Database, writer: WriteQueue<SqliteWrite>): ClientRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(`INSERT INTO clients (sid, account_sid, login, friendly_name, date_created, data)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
    login = excluded.login, friendly_name = excluded.friendly_name, data = excluded.data`);
  const getOne = db.prepare('SELECT data FROM clients WHERE sid = ? AND account_sid = ?').pluck();
  const deleteOne = db.prepare('DELETE FROM clients WHERE sid = ? AND account_sid = ?');
  const every = db.prepare('SELECT data FROM clients ORDER BY date_created, sid').pluck();
  return {
    put: async (c) => {
      const data = JSON.stringify(c);
      try {
        await writes.write(
          { run: () => upsert.run(c.sid, c.accountSid, c.login, c.friendlyName, c.dateCreated, data) },
          { failFast: true },
        );
      } catch (err) {
        throw isUniqueViolation(err) ? new DuplicateLoginError(c.login) : err;
      }
    },
    get: async (accountSid, sid) => {
      writes.flush();
      const data = getOne.get(sid, accountSid) as string | undefined;
      return data === undefined ? undefined : (JSON.parse(data) as ClientRecord);
    },
    list: async (q) => {
      writes.flush();
      const parts = ['account_sid = ?'];
      const params: unknown[] = [q.accountSid];
      if (q.login !== undefined) parts.push('login = ?') && params.push(q.login);
      if (q.friendlyName !== undefined) parts.push('friendly_name = ?') && params.push(q.friendlyName);
      return pageQuery<ClientRecord>(db, 'clients', parts, params, q);
    },
    delete: (accountSid, sid) =>
      writes.write<boolean>({ run: () => deleteOne.run(sid, accountSid).changes > 0 }, { failFast: true }),
    all: async () => {
      writes.flush();
      return (every.all() as string[]).map((d) => JSON.parse(d) as ClientRecord);
    },
  };
}
