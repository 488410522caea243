/**
 * The enterprise records in the PostgreSQL database of a platform store (tables migrated when
 * that store opens; same layout as SQLite's), so every node sees every enterprise, user,
 * announcement (audio as `bytea`), workspace, activity and task queue. Writes go through the
 * platform store's group-commit writer; a write spanning rows is one transaction.
 */
import type pg from 'pg';
import {
  byteaOf,
  bytesOf,
  CLIENT_WRITE,
  isUniqueViolation,
  type PostgresConnection,
  parsed,
} from '../postgres/connection.js';
import type { Reader } from '../postgres/paging.js';
import type { Page } from '../types.js';
import { fieldsOf, type Owned, type RecordKind, SORT_COLUMN } from './fields.js';
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

/** Inserts or replaces a record of `kind` on `client`; a uniqueness clash throws {@link DuplicateRecordError}. */
async function upsert(client: pg.PoolClient, kind: RecordKind, record: Owned): Promise<void> {
  const f = fieldsOf(kind, record);
  try {
    await client.query({
      name: 'rcml_enterprise_records_put',
      text: `INSERT INTO enterprise_records
          (sid, kind, account_sid, enterprise_sid, workspace_sid, name_key, email_key, role, status,
           date_created, unique_key, data)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
          enterprise_sid = excluded.enterprise_sid, workspace_sid = excluded.workspace_sid,
          name_key = excluded.name_key, email_key = excluded.email_key, role = excluded.role,
          status = excluded.status, date_created = excluded.date_created,
          unique_key = excluded.unique_key, data = excluded.data`,
      values: [
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
      ],
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateRecordError(kind, f.unique ?? f.sid);
    throw err;
  }
}

/** The WHERE clause of a search over `$1..$n` and its values (the same filters as `fieldsMatch`). */
function whereOf(kind: RecordKind, q: SearchQuery): { sql: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    if (value === undefined) return;
    values.push(value);
    clauses.push(sql.replace('?', `$${values.length}`));
  };
  add('kind = ?', kind);
  add('account_sid = ?', q.accountSid);
  add('enterprise_sid = ?', q.enterpriseSid);
  add('workspace_sid = ?', q.workspaceSid);
  add('role = ?', q.role);
  add('status = ?', q.status);
  // strpos on keys lower-cased in JS: the same matching as the memory store, any alphabet, and
  // no LIKE wildcards to escape.
  add('strpos(name_key, ?) > 0', q.nameContains?.toLowerCase());
  add('strpos(email_key, ?) > 0', q.emailContains?.toLowerCase());
  add('date_created >= ?', q.createdFrom);
  add('date_created <= ?', q.createdTo);
  return { sql: clauses.join(' AND '), values };
}

async function search<R>(db: Reader, kind: RecordKind, q: SearchQuery): Promise<Page<R>> {
  const where = whereOf(kind, q);
  const dir = q.sort?.order === 'desc' ? 'DESC' : 'ASC';
  const column = SORT_COLUMN[q.sort?.by ?? 'dateCreated'];
  const order =
    column === 'date_created'
      ? `date_created ${dir}, sid ${dir}`
      : `${column} ${dir}, date_created ${dir}, sid ${dir}`;
  const n = where.values.length;
  const [rows, [count]] = await Promise.all([
    db.query<{ data: string }>(
      `SELECT data FROM enterprise_records WHERE ${where.sql} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.values, q.limit, q.offset],
    ),
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM enterprise_records WHERE ${where.sql}`,
      where.values,
    ),
  ]);
  return { items: parsed<R>(rows), total: count.n, offset: q.offset };
}

function postgresTable<R extends Owned>({ db, writer }: PostgresConnection, kind: RecordKind): Repository<R> {
  return {
    async put(record) {
      await writer.write({ run: (client) => upsert(client, kind, record) }, CLIENT_WRITE);
    },
    async get(accountSid, sid) {
      return parsed<R>(
        await db.query(
          'SELECT data FROM enterprise_records WHERE sid = $1 AND kind = $2 AND account_sid = $3',
          [sid, kind, accountSid],
        ),
      )[0];
    },
    search: (q) => search<R>(db, kind, q),
  };
}

/** Removes the account's workspace with its activities and task queues; false when it had none. */
async function deleteWorkspace(client: pg.PoolClient, accountSid: string, sid: string): Promise<boolean> {
  const res = await client.query(
    "DELETE FROM enterprise_records WHERE sid = $1 AND kind = 'workspace' AND account_sid = $2",
    [sid, accountSid],
  );
  if ((res.rowCount ?? 0) === 0) return false;
  await client.query(
    `DELETE FROM enterprise_records
      WHERE account_sid = $1 AND workspace_sid = $2 AND kind IN ('activity', 'taskQueue')`,
    [accountSid, sid],
  );
  return true;
}

export function postgresEnterpriseStore(connection: PostgresConnection): EnterpriseStore {
  const { db, writer } = connection;
  const enterprises = postgresTable<EnterpriseRecord>(connection, 'enterprise');
  const announcements = postgresTable<AnnouncementRecord>(connection, 'announcement');
  const workspaces = postgresTable<WorkspaceRecord>(connection, 'workspace');
  const users = postgresTable<AaUserRecord>(connection, 'user');
  const enterpriseRepo: EnterpriseRepository = {
    ...enterprises,
    async ownerOf(sid) {
      const [row] = await db.query<{ account_sid: string }>(
        "SELECT account_sid FROM enterprise_records WHERE sid = $1 AND kind = 'enterprise'",
        [sid],
      );
      return row?.account_sid;
    },
  };
  const announcementRepo: AnnouncementRepository = {
    ...announcements,
    async putAudio(record, wav) {
      await writer.write(
        {
          run: async (client) => {
            await upsert(client, 'announcement', record);
            await client.query(
              `INSERT INTO enterprise_files (sid, data) VALUES ($1, $2)
                ON CONFLICT (sid) DO UPDATE SET data = excluded.data`,
              [record.sid, byteaOf(wav)],
            );
          },
        },
        CLIENT_WRITE,
      );
    },
    async audio(sid) {
      const [row] = await db.query<{ record: string; wav: Buffer }>(
        `SELECT r.data AS record, f.data AS wav FROM enterprise_files f
          JOIN enterprise_records r ON r.sid = f.sid WHERE f.sid = $1`,
        [sid],
      );
      return row
        ? { record: JSON.parse(row.record) as AnnouncementRecord, wav: bytesOf(row.wav) }
        : undefined;
    },
  };
  const workspaceRepo: WorkspaceRepository = {
    ...workspaces,
    async create(workspace, activities) {
      await writer.write(
        {
          run: async (client) => {
            await upsert(client, 'workspace', workspace);
            for (const a of activities) await upsert(client, 'activity', a);
          },
        },
        CLIENT_WRITE,
      );
    },
    delete: (accountSid, sid) =>
      writer.write<boolean>({ run: (client) => deleteWorkspace(client, accountSid, sid) }, CLIENT_WRITE),
  };
  return {
    enterprises: enterpriseRepo,
    users: {
      ...users,
      async withEmail(email) {
        const rows = await db.query<{ data: string }>(
          "SELECT data FROM enterprise_records WHERE kind = 'user' AND email_key = $1",
          [email.toLowerCase()],
        );
        return rows.map((r) => JSON.parse(r.data) as AaUserRecord);
      },
    },
    announcements: announcementRepo,
    workspaces: workspaceRepo,
    activities: postgresTable<ActivityRecord>(connection, 'activity'),
    taskQueues: postgresTable<TaskQueueRecord>(connection, 'taskQueue'),
    close: () => writer.settled(),
  };
}
