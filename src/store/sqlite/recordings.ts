import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { RecordingRecord } from '../../engine/records.js';
import type { RecordingRepository } from '../ports.js';
import type { RecordingSortKey } from '../types.js';
import type { WriteQueue } from '../write-queue.js';
import { pageQuery } from './paging.js';
import { RepositoryWrites, type SqliteWrite } from './writer.js';

const SORT_COLUMNS: Record<RecordingSortKey, string> = {
  dateCreated: 'date_created',
  duration: 'duration',
  callSid: 'call_sid',
};

/** Sids become file names: anything but letters and digits is refused. */
function safeName(sid: string): string {
  if (!/^[A-Za-z0-9]+$/.test(sid)) throw new Error(`invalid sid for a file name: ${JSON.stringify(sid)}`);
  return sid;
}

/**
 * Recordings over SQLite, each WAV a file `recordings/<AccountSid>/<RecordingSid>.wav` under the
 * data directory. The file is written (to a temporary name, then renamed) before its row is
 * committed, so a committed row always has its complete file.
 */
export function sqliteRecordings(
  db: Database.Database,
  dataDir: string,
  writer: WriteQueue<SqliteWrite>,
): RecordingRepository {
  const writes = new RepositoryWrites(writer);
  const root = join(dataDir, 'recordings');
  const upsert =
    db.prepare(`INSERT INTO recordings (sid, account_sid, call_sid, date_created, duration, file, data)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid, call_sid = excluded.call_sid,
      date_created = excluded.date_created, duration = excluded.duration, file = excluded.file, data = excluded.data`);
  const getOne = db.prepare('SELECT data, file FROM recordings WHERE sid = ? AND account_sid = ?');
  const remove = db.prepare('DELETE FROM recordings WHERE sid = ? AND account_sid = ?');
  const read = (accountSid: string, sid: string) => {
    writes.flush();
    return getOne.get(sid, accountSid) as { data: string; file: string } | undefined;
  };

  return {
    put: async (r, wav) => {
      const dir = join(root, safeName(r.accountSid));
      const file = join(safeName(r.accountSid), `${safeName(r.sid)}.wav`);
      const data = JSON.stringify(r);
      // The file is written in the row's transaction: a full disk fails (and retries) both.
      await writes.write({
        run: () => {
          mkdirSync(dir, { recursive: true });
          const tmp = join(dir, `${r.sid}.wav.tmp`);
          writeFileSync(tmp, wav);
          renameSync(tmp, join(root, file));
          upsert.run(r.sid, r.accountSid, r.callSid, r.dateCreated, r.duration, file, data);
        },
      });
    },
    get: async (accountSid, sid) => {
      const row = read(accountSid, sid);
      return row && (JSON.parse(row.data) as RecordingRecord);
    },
    wav: async (accountSid, sid) => {
      const row = read(accountSid, sid);
      if (!row) return undefined;
      try {
        return new Uint8Array(readFileSync(join(root, row.file)));
      } catch {
        return undefined;
      }
    },
    delete: (accountSid, sid) => {
      let file: string | undefined;
      return writes.write<boolean>(
        {
          run: () => {
            const row = getOne.get(sid, accountSid) as { file: string } | undefined;
            file = row?.file;
            return row !== undefined && remove.run(sid, accountSid).changes > 0;
          },
          // The file goes once its row is gone for good.
          committed: () => {
            if (file !== undefined) rmSync(join(root, file), { force: true });
          },
        },
        { failFast: true },
      );
    },
    list: async (q) => {
      writes.flush();
      const parts = ['account_sid = ?'];
      const params: unknown[] = [q.accountSid];
      if (q.callSid !== undefined) parts.push('call_sid = ?') && params.push(q.callSid);
      if (q.createdFrom !== undefined) parts.push('date_created >= ?') && params.push(q.createdFrom);
      if (q.createdTo !== undefined) parts.push('date_created <= ?') && params.push(q.createdTo);
      const order = { column: SORT_COLUMNS[q.sort?.by ?? 'dateCreated'], desc: q.sort?.order === 'desc' };
      return pageQuery<RecordingRecord>(db, 'recordings', parts, params, q, order);
    },
  };
}
