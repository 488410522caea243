import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/driver.js';
import type { Page } from '../types.js';
import { fieldsOf, type Owned, type RecordKind, SORT_COLUMN } from './fields.js';
import { migrateEnterprise } from './migrations.js';
import {
  type AnnouncementRepository,
  DuplicateRecordError,
  type EnterpriseRepository,
  type EnterpriseStore,
  type Repository,
  type WorkspaceRepository,
} from './ports.js';
import type {
  AaUserRecord,
  ActivityRecord,
  AnnouncementRecord,
  EnterpriseRecord,
  SearchQuery,
  TaskQueueRecord,
  WorkspaceRecord,
} from './types.js';

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Builds the WHERE clause and parameters of a search (the same filters as `fieldsMatch`). */
function whereOf(kind: RecordKind, q: SearchQuery): { sql: string; params: unknown[] } {
  const clauses = ['kind = ?', 'account_sid = ?'];
  const params: unknown[] = [kind, q.accountSid];
  const eq = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(`${column} = ?`);
    params.push(value);
  };
  eq('enterprise_sid', q.enterpriseSid);
  eq('workspace_sid', q.workspaceSid);
  eq('role', q.role);
  eq('status', q.status);
  // instr on keys lower-cased in JS: the same matching as the memory store, any alphabet.
  if (q.nameContains !== undefined) {
    clauses.push('instr(name_key, ?) > 0');
    params.push(q.nameContains.toLowerCase());
  }
  if (q.emailContains !== undefined) {
    clauses.push('instr(email_key, ?) > 0');
    params.push(q.emailContains.toLowerCase());
  }
  if (q.createdFrom !== undefined) {
    clauses.push('date_created >= ?');
    params.push(q.createdFrom);
  }
  if (q.createdTo !== undefined) {
    clauses.push('date_created <= ?');
    params.push(q.createdTo);
  }
  return { sql: clauses.join(' AND '), params };
}

/** A repository over one kind, plus its synchronous write for use inside a transaction. */
type SqliteTable<R extends Owned> = Repository<R> & { putSync(record: R): void };

function sqliteTable<R extends Owned>(db: Database.Database, kind: RecordKind): SqliteTable<R> {
  const upsert = db.prepare(`INSERT INTO enterprise_records
      (sid, kind, account_sid, enterprise_sid, workspace_sid, name_key, email_key, role, status,
       date_created, unique_key, data)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
      enterprise_sid = excluded.enterprise_sid, workspace_sid = excluded.workspace_sid,
      name_key = excluded.name_key, email_key = excluded.email_key, role = excluded.role,
      status = excluded.status, date_created = excluded.date_created,
      unique_key = excluded.unique_key, data = excluded.data`);
  const getOne = db.prepare(
    'SELECT data FROM enterprise_records WHERE sid = ? AND kind = ? AND account_sid = ?',
  );
  const putSync = (record: R) => {
    const f = fieldsOf(kind, record);
    try {
      upsert.run(
        f.sid,
        kind,
        f.accountSid,
        f.enterpriseSid,
        f.workspaceSid,
        f.nameKey,
        f.emailKey,
        f.role,
        f.status,
        f.dateCreated,
        f.unique,
        JSON.stringify(record),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateRecordError(kind, f.unique ?? f.sid);
      throw err;
    }
  };
  return {
    putSync,
    async put(record) {
      putSync(record);
    },
    async get(accountSid, sid) {
      const row = getOne.get(sid, kind, accountSid) as { data: string } | undefined;
      return row ? (JSON.parse(row.data) as R) : undefined;
    },
    async search(q): Promise<Page<R>> {
      const where = whereOf(kind, q);
      const dir = q.sort?.order === 'desc' ? 'DESC' : 'ASC';
      const column = SORT_COLUMN[q.sort?.by ?? 'dateCreated'];
      const order =
        column === 'date_created'
          ? `date_created ${dir}, sid ${dir}`
          : `${column} ${dir}, date_created ${dir}, sid ${dir}`;
      const rows = db
        .prepare(`SELECT data FROM enterprise_records WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .all(...where.params, q.limit, q.offset) as Array<{ data: string }>;
      const { n } = db
        .prepare(`SELECT count(*) AS n FROM enterprise_records WHERE ${where.sql}`)
        .get(...where.params) as { n: number };
      return { items: rows.map((r) => JSON.parse(r.data) as R), total: n, offset: q.offset };
    },
  };
}

/** Options of {@link openSqliteEnterpriseStore}. */
export interface SqliteEnterpriseStoreOptions {
  /** Data directory; the records go into its `rcml.sqlite`, beside the platform's. */
  dir: string;
}

/**
 * The enterprise records in SQLite: tables of their own in the data directory's database
 * (a connection of its own, WAL mode), with their own schema versions
 * (`enterprise_migrations`). Announcement audio is kept as a BLOB beside its record.
 */
export function openSqliteEnterpriseStore(options: SqliteEnterpriseStoreOptions): EnterpriseStore {
  mkdirSync(options.dir, { recursive: true });
  const db = openDatabase(join(options.dir, 'rcml.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrateEnterprise(db);
  } catch (err) {
    db.close();
    throw new Error(
      `cannot open the enterprise store in ${options.dir}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return sqliteEnterpriseStore(db);
}

/** The enterprise store over an open, migrated database. */
function sqliteEnterpriseStore(db: Database.Database): EnterpriseStore {
  const enterprises = sqliteTable<EnterpriseRecord>(db, 'enterprise');
  const announcements = sqliteTable<AnnouncementRecord>(db, 'announcement');
  const workspaces = sqliteTable<WorkspaceRecord>(db, 'workspace');
  const activities = sqliteTable<ActivityRecord>(db, 'activity');
  const users = sqliteTable<AaUserRecord>(db, 'user');
  const usersByEmail = db.prepare(
    "SELECT data FROM enterprise_records WHERE kind = 'user' AND email_key = ?",
  );
  const owner = db.prepare(
    "SELECT account_sid FROM enterprise_records WHERE sid = ? AND kind = 'enterprise'",
  );
  const putFile = db.prepare(
    'INSERT INTO enterprise_files (sid, data) VALUES (?, ?) ON CONFLICT (sid) DO UPDATE SET data = excluded.data',
  );
  const getFile = db.prepare(`SELECT r.data AS record, f.data AS wav FROM enterprise_files f
    JOIN enterprise_records r ON r.sid = f.sid WHERE f.sid = ?`);
  const deleteWorkspace = db.prepare(`DELETE FROM enterprise_records
    WHERE account_sid = ? AND (sid = ? OR (workspace_sid = ? AND kind IN ('activity', 'taskQueue')))`);
  const enterpriseRepo: EnterpriseRepository = {
    ...enterprises,
    async ownerOf(sid) {
      return (owner.get(sid) as { account_sid: string } | undefined)?.account_sid;
    },
  };
  const announcementRepo: AnnouncementRepository = {
    ...announcements,
    async putAudio(record, wav) {
      db.transaction(() => {
        announcements.putSync(record);
        putFile.run(record.sid, Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength));
      })();
    },
    async audio(sid) {
      const row = getFile.get(sid) as { record: string; wav: Buffer } | undefined;
      return row
        ? { record: JSON.parse(row.record) as AnnouncementRecord, wav: new Uint8Array(row.wav) }
        : undefined;
    },
  };
  const workspaceRepo: WorkspaceRepository = {
    ...workspaces,
    async create(workspace, acts) {
      db.transaction(() => {
        workspaces.putSync(workspace);
        for (const a of acts) activities.putSync(a);
      })();
    },
    async delete(accountSid, sid) {
      if (!(await workspaces.get(accountSid, sid))) return false;
      deleteWorkspace.run(accountSid, sid, sid);
      return true;
    },
  };
  return {
    enterprises: enterpriseRepo,
    users: {
      ...users,
      async withEmail(email) {
        const rows = usersByEmail.all(email.toLowerCase()) as Array<{ data: string }>;
        return rows.map((r) => JSON.parse(r.data) as AaUserRecord);
      },
    },
    announcements: announcementRepo,
    workspaces: workspaceRepo,
    activities,
    taskQueues: sqliteTable<TaskQueueRecord>(db, 'taskQueue'),
    close: async () => {
      if (db.open) db.close();
    },
  };
}
