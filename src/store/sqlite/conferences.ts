import type Database from 'better-sqlite3';
import type { ConferenceRecord } from '../../engine/records.js';
import type { ConferenceRepository } from '../ports.js';
import type { WriteQueue } from '../write-queue.js';
import { pageQuery } from './paging.js';
import { RepositoryWrites, type SqliteWrite } from './writer.js';

/** Conference rooms over SQLite: the filtered columns, plus the room with its participants as JSON. */
export function sqliteConferences(
  db: Database.Database,
  writer: WriteQueue<SqliteWrite>,
): ConferenceRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(`INSERT INTO conferences
    (sid, account_sid, friendly_name, status, date_created, date_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
    friendly_name = excluded.friendly_name, status = excluded.status,
    date_created = excluded.date_created, date_updated = excluded.date_updated, data = excluded.data`);
  const getOne = db.prepare('SELECT data FROM conferences WHERE sid = ? AND account_sid = ?').pluck();
  const live = db
    .prepare("SELECT data FROM conferences WHERE status <> 'completed' ORDER BY date_created, sid")
    .pluck();
  return {
    put: async (r) => {
      const data = JSON.stringify(r);
      await writes.write({
        run: () =>
          upsert.run(r.sid, r.accountSid, r.friendlyName, r.status, r.dateCreated, r.dateUpdated, data),
      });
    },
    get: async (accountSid, sid) => {
      writes.flush();
      const data = getOne.get(sid, accountSid) as string | undefined;
      return data === undefined ? undefined : (JSON.parse(data) as ConferenceRecord);
    },
    list: async (q) => {
      writes.flush();
      const parts = ['account_sid = ?'];
      const params: unknown[] = [q.accountSid];
      if (q.friendlyName !== undefined) parts.push('friendly_name = ?') && params.push(q.friendlyName);
      if (q.status !== undefined) parts.push('status = ?') && params.push(q.status);
      if (q.createdFrom !== undefined) parts.push('date_created >= ?') && params.push(q.createdFrom);
      if (q.createdTo !== undefined) parts.push('date_created <= ?') && params.push(q.createdTo);
      if (q.updatedFrom !== undefined) parts.push('date_updated >= ?') && params.push(q.updatedFrom);
      if (q.updatedTo !== undefined) parts.push('date_updated <= ?') && params.push(q.updatedTo);
      return pageQuery<ConferenceRecord>(db, 'conferences', parts, params, q);
    },
    listLive: async () => {
      writes.flush();
      return (live.all() as string[]).map((d) => JSON.parse(d) as ConferenceRecord);
    },
  };
}
