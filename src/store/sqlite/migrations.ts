import type Database from 'better-sqlite3';
import { upgradeAccountRecord } from '../credentials.js';

/**
 * Schema changes in order. A database records the versions it has applied in `migrations`;
 * opening it applies the rest, each in its own transaction. Never edit a released step: add one.
 * Each table keeps the columns it filters and sorts on, plus the whole record as JSON.
 */
export const MIGRATIONS: ReadonlyArray<{
  version: number;
  name: string;
  sql: string;
  /** A step SQL alone cannot do, run after `sql` in the same transaction. */
  run?: (db: Database.Database) => void;
}> = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE accounts (
        sid TEXT PRIMARY KEY, date_created INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE calls (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, parent_call_sid TEXT,
        direction TEXT NOT NULL, from_addr TEXT NOT NULL, to_addr TEXT NOT NULL,
        status TEXT NOT NULL, live INTEGER NOT NULL, date_created INTEGER NOT NULL,
        start_time INTEGER, end_time INTEGER, duration INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE INDEX calls_account_created ON calls (account_sid, date_created, sid);
      CREATE INDEX calls_account_to ON calls (account_sid, to_addr);
      CREATE INDEX calls_account_from ON calls (account_sid, from_addr);
      CREATE INDEX calls_account_status ON calls (account_sid, status);
      CREATE INDEX calls_parent ON calls (parent_call_sid) WHERE parent_call_sid IS NOT NULL;
      CREATE INDEX calls_live ON calls (live) WHERE live = 1;
      CREATE TABLE recordings (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, call_sid TEXT NOT NULL,
        date_created INTEGER NOT NULL, duration REAL NOT NULL, file TEXT NOT NULL, data TEXT NOT NULL);
      CREATE INDEX recordings_account_created ON recordings (account_sid, date_created, sid);
      CREATE TABLE gathers (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, kind TEXT NOT NULL, call_sid TEXT NOT NULL,
        date_created INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE INDEX gathers_account_kind_created ON gathers (account_sid, kind, date_created, sid);
      CREATE TABLE notifications (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, call_sid TEXT,
        date_created INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE INDEX notifications_account_created ON notifications (account_sid, date_created, sid);
      CREATE TABLE applications (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, data TEXT NOT NULL);
    `,
  },
  {
    version: 2,
    name: 'call list indexes',
    // Every index starts with account_sid and ends with the list's tie-break (date_created, sid),
    // so a filter on its column plus the default order, or an order on its column, is read
    // straight off the index and stops after the page; counts of those filters are index-only.
    // Status, direction and duration, alone or after To/From, also get a descending copy:
    // scanned backwards, an ascending index gives the ties in reverse, and SQLite re-sorts
    // every group of equal values (all of an account's calls for a status). The time
    // indexes hold both bounds so a StartTime/EndTime list is sorted without reading rows.
    // `sqlite/calls.ts` picks one of these per query.
    sql: `
      DROP INDEX calls_account_to;
      DROP INDEX calls_account_from;
      DROP INDEX calls_account_status;
      DROP INDEX calls_parent;
      CREATE INDEX calls_to ON calls (account_sid, to_addr, date_created, sid);
      CREATE INDEX calls_from ON calls (account_sid, from_addr, date_created, sid);
      CREATE INDEX calls_status ON calls (account_sid, status, date_created, sid);
      CREATE INDEX calls_status_desc ON calls (account_sid, status DESC, date_created, sid);
      CREATE INDEX calls_direction ON calls (account_sid, direction, date_created, sid);
      CREATE INDEX calls_direction_desc ON calls (account_sid, direction DESC, date_created, sid);
      CREATE INDEX calls_duration ON calls (account_sid, duration, date_created, sid);
      CREATE INDEX calls_duration_desc ON calls (account_sid, duration DESC, date_created, sid);
      CREATE INDEX calls_to_duration ON calls (account_sid, to_addr, duration, date_created, sid);
      CREATE INDEX calls_to_duration_desc
        ON calls (account_sid, to_addr, duration DESC, date_created, sid);
      CREATE INDEX calls_from_duration ON calls (account_sid, from_addr, duration, date_created, sid);
      CREATE INDEX calls_from_duration_desc
        ON calls (account_sid, from_addr, duration DESC, date_created, sid);
      CREATE INDEX calls_parent_created ON calls (account_sid, parent_call_sid, date_created, sid)
        WHERE parent_call_sid IS NOT NULL;
      CREATE INDEX calls_started ON calls (account_sid, start_time, end_time, date_created, sid)
        WHERE start_time IS NOT NULL;
      CREATE INDEX calls_ended ON calls (account_sid, end_time, start_time, date_created, sid)
        WHERE end_time IS NOT NULL;
    `,
  },
  {
    version: 3,
    name: 'auth tokens kept as keyed hashes, signing keys',
    sql: '',
    run: (db) => {
      const rows = db.prepare('SELECT sid, data FROM accounts').all() as Array<{ sid: string; data: string }>;
      const update = db.prepare('UPDATE accounts SET data = ? WHERE sid = ?');
      for (const row of rows) {
        const upgraded = upgradeAccountRecord(JSON.parse(row.data) as Record<string, unknown>);
        update.run(JSON.stringify(upgraded), row.sid);
      }
    },
  },
  {
    version: 4,
    name: 'conference rooms',
    sql: `
      CREATE TABLE conferences (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, friendly_name TEXT NOT NULL,
        status TEXT NOT NULL, date_created INTEGER NOT NULL, date_updated INTEGER NOT NULL,
        data TEXT NOT NULL);
      CREATE INDEX conferences_account_created ON conferences (account_sid, date_created, sid);
      CREATE INDEX conferences_live ON conferences (status) WHERE status <> 'completed';
    `,
  },
  {
    version: 5,
    name: 'clients',
    // A login is unique within its account: the index refuses a second one in any race.
    sql: `
      CREATE TABLE clients (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, login TEXT NOT NULL,
        friendly_name TEXT NOT NULL, date_created INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE UNIQUE INDEX clients_login ON clients (account_sid, login);
      CREATE INDEX clients_account_created ON clients (account_sid, date_created, sid);
    `,
  },
  {
    version: 6,
    name: 'calls by duration: ascending indexes only',
    // Every call is written into each index of the table when made and, its duration set, again
    // when it ends: the three descending duration copies were a fifth of a call's index writes.
    // A descending duration list walks the ascending index backwards and re-sorts each group of
    // equal durations by creation, small groups (the longest calls come first; the many calls
    // of no duration come last). Status and direction keep their descending copies: their
    // groups are a large part of an account.
    sql: `
      DROP INDEX calls_duration_desc;
      DROP INDEX calls_to_duration_desc;
      DROP INDEX calls_from_duration_desc;
    `,
  },
];

/** Applies every migration the database has not seen yet; returns the versions applied. */
export function migrate(db: Database.Database): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const done = new Set(
    (db.prepare('SELECT version FROM migrations').all() as Array<{ version: number }>).map((r) => r.version),
  );
  const latest = Math.max(...MIGRATIONS.map((m) => m.version));
  const newest = Math.max(0, ...done);
  if (newest > latest) {
    throw new Error(`database schema version ${newest} is newer than this rcml-engine supports (${latest})`);
  }
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.run?.(db);
      record.run(m.version, m.name, Date.now());
    })();
    applied.push(m.version);
  }
  return applied;
}
