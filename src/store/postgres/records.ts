import type { GatherRecord, NotificationRecord, RecordingRecord } from '../../engine/records.js';
import type {
  AccountRepository,
  ApplicationRepository,
  GatherRepository,
  NotificationRepository,
  RecordingRepository,
} from '../ports.js';
import type { AccountRecord, ApplicationRecord, RecordingSortKey } from '../types.js';
import { CLIENT_WRITE, one } from './connection.js';
import { FilterBuilder, pageQuery, type Reader } from './paging.js';
import type { GroupWriter } from './writer.js';

const first = <T>(rows: Array<{ data: string }>): T | undefined =>
  rows.length === 0 ? undefined : (JSON.parse(rows[0].data) as T);

export function postgresAccounts(db: Reader, writer: GroupWriter): AccountRepository {
  return {
    put: async (a) => {
      await writer.write(
        one(
          'rcml_accounts_put',
          `INSERT INTO accounts (sid, date_created, data) VALUES ($1, $2, $3)
            ON CONFLICT (sid) DO UPDATE SET data = excluded.data`,
          [a.sid, a.dateCreated, JSON.stringify(a)],
        ),
        CLIENT_WRITE,
      );
    },
    get: async (sid) =>
      first<AccountRecord>(await db.query('SELECT data FROM accounts WHERE sid = $1', [sid])),
    list: async () =>
      (await db.query<{ data: string }>('SELECT data FROM accounts ORDER BY date_created, sid', [])).map(
        (r) => JSON.parse(r.data) as AccountRecord,
      ),
  };
}

export function postgresGathers(db: Reader, writer: GroupWriter): GatherRepository {
  return {
    put: async (g) => {
      await writer.write(
        one(
          'rcml_gathers_put',
          `INSERT INTO gathers (sid, account_sid, kind, call_sid, date_created, data)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
            kind = excluded.kind, call_sid = excluded.call_sid, date_created = excluded.date_created,
            data = excluded.data`,
          [g.sid, g.accountSid, g.kind, g.callSid, g.dateCreated, JSON.stringify(g)],
        ),
      );
    },
    get: async (accountSid, kind, sid) =>
      first<GatherRecord>(
        await db.query('SELECT data FROM gathers WHERE sid = $1 AND account_sid = $2 AND kind = $3', [
          sid,
          accountSid,
          kind,
        ]),
      ),
    list: (q) =>
      pageQuery<GatherRecord>(
        db,
        'gathers',
        new FilterBuilder()
          .add('account_sid = ?', q.accountSid)
          .add('kind = ?', q.kind)
          .add('call_sid = ?', q.callSid)
          .add('date_created >= ?', q.createdFrom)
          .add('date_created <= ?', q.createdTo)
          .build(),
        q,
      ),
  };
}

export function postgresNotifications(db: Reader, writer: GroupWriter): NotificationRepository {
  return {
    put: async (n) => {
      await writer.write(
        one(
          'rcml_notifications_put',
          `INSERT INTO notifications (sid, account_sid, call_sid, log, date_created, data)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sid) DO UPDATE SET data = excluded.data`,
          [n.sid, n.accountSid, n.callSid ?? null, n.log, n.dateCreated, JSON.stringify(n)],
        ),
      );
    },
    get: async (accountSid, sid) =>
      first<NotificationRecord>(
        await db.query('SELECT data FROM notifications WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
      ),
    list: (q) =>
      pageQuery<NotificationRecord>(
        db,
        'notifications',
        new FilterBuilder()
          .add('account_sid = ?', q.accountSid)
          .add('call_sid = ?', q.callSid)
          .add('log = ?', q.log)
          .add('date_created >= ?', q.createdFrom)
          .add('date_created <= ?', q.createdTo)
          .build(),
        q,
      ),
  };
}

export function postgresApplications(db: Reader, writer: GroupWriter): ApplicationRepository {
  return {
    put: async (a) => {
      await writer.write(
        one(
          'rcml_applications_put',
          `INSERT INTO applications (sid, account_sid, data) VALUES ($1, $2, $3)
            ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid, data = excluded.data`,
          [a.sid, a.accountSid, JSON.stringify(a)],
        ),
        CLIENT_WRITE,
      );
    },
    get: async (accountSid, sid) =>
      first<ApplicationRecord>(
        await db.query('SELECT data FROM applications WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
      ),
    delete: async (accountSid, sid) => {
      const res = await writer.write(
        one('rcml_applications_delete', 'DELETE FROM applications WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
        CLIENT_WRITE,
      );
      return (res.rowCount ?? 0) > 0;
    },
  };
}

const RECORDING_SORT: Record<RecordingSortKey, string> = {
  dateCreated: 'date_created',
  duration: 'duration',
  callSid: 'call_sid',
};

/**
 * Recordings over PostgreSQL, each WAV file in its row (`bytea`), so every node serves every
 * recording; lists never read the bytes.
 */
export function postgresRecordings(db: Reader, writer: GroupWriter): RecordingRepository {
  return {
    put: async (r, wav) => {
      await writer.write(
        one(
          'rcml_recordings_put',
          `INSERT INTO recordings (sid, account_sid, call_sid, date_created, duration, data, wav)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (sid) DO UPDATE SET
            account_sid = excluded.account_sid, call_sid = excluded.call_sid,
            date_created = excluded.date_created, duration = excluded.duration, data = excluded.data,
            wav = excluded.wav`,
          [r.sid, r.accountSid, r.callSid, r.dateCreated, r.duration, JSON.stringify(r), Buffer.from(wav)],
        ),
      );
    },
    get: async (accountSid, sid) =>
      first<RecordingRecord>(
        await db.query('SELECT data FROM recordings WHERE sid = $1 AND account_sid = $2', [sid, accountSid]),
      ),
    wav: async (accountSid, sid) => {
      const [row] = await db.query<{ wav: Buffer }>(
        'SELECT wav FROM recordings WHERE sid = $1 AND account_sid = $2',
        [sid, accountSid],
      );
      return row && new Uint8Array(row.wav.buffer, row.wav.byteOffset, row.wav.byteLength);
    },
    delete: async (accountSid, sid) => {
      const res = await writer.write(
        one('rcml_recordings_delete', 'DELETE FROM recordings WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
        CLIENT_WRITE,
      );
      return (res.rowCount ?? 0) > 0;
    },
    list: (q) =>
      pageQuery<RecordingRecord>(
        db,
        'recordings',
        new FilterBuilder()
          .add('account_sid = ?', q.accountSid)
          .add('call_sid = ?', q.callSid)
          .add('date_created >= ?', q.createdFrom)
          .add('date_created <= ?', q.createdTo)
          .build(),
        q,
        { column: RECORDING_SORT[q.sort?.by ?? 'dateCreated'], desc: q.sort?.order === 'desc' },
      ),
  };
}
