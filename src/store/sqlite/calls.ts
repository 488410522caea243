import type Database from 'better-sqlite3';
import type { CallRecord } from '../../engine/records.js';
import { TERMINAL_STATUSES } from '../../engine/records.js';
import type { CallRepository } from '../ports.js';
import type { CallQuery, CallSortKey } from '../types.js';
import type { WriteQueue } from '../write-queue.js';
import { offsetAfter } from './paging.js';
import { RepositoryWrites, type SqliteWrite } from './writer.js';

const SORT_COLUMNS: Record<CallSortKey, string> = {
  dateCreated: 'date_created',
  from: 'from_addr',
  to: 'to_addr',
  direction: 'direction',
  status: 'status',
  duration: 'duration',
};

/** The index that walks a whole account in each sort order (see migrations 2 and 6). */
function sortIndex(by: CallSortKey, desc: boolean): string {
  switch (by) {
    case 'dateCreated':
      return 'calls_account_created';
    case 'to':
      return 'calls_to';
    case 'from':
      return 'calls_from';
    case 'status':
      return desc ? 'calls_status_desc' : 'calls_status';
    case 'direction':
      return desc ? 'calls_direction_desc' : 'calls_direction';
    case 'duration':
      return 'calls_duration';
  }
}

/**
 * The index a calls query reads. Chosen here rather than by SQLite's planner, which without
 * statistics often prefers walking a sort index over a selective filter (tens of ms instead of
 * tens of µs). Selective filters (parent, To, From) narrow first; low-cardinality ones (Status,
 * direction) only when the order agrees, since walking the sort order and skipping non-matches
 * stops after the page; time ranges next; otherwise the sort order's own index.
 */
export function callIndexFor(q: CallQuery): string {
  const by = q.sort?.by ?? 'dateCreated';
  const desc = q.sort?.order === 'desc';
  if (q.parentCallSid !== undefined) return 'calls_parent_created';
  const byDuration = by === 'duration' ? '_duration' : '';
  if (q.to !== undefined) return `calls_to${byDuration}`;
  if (q.from !== undefined) return `calls_from${byDuration}`;
  if (q.status !== undefined && (by === 'dateCreated' || by === 'status')) return 'calls_status';
  if (q.direction !== undefined && (by === 'dateCreated' || by === 'direction')) return 'calls_direction';
  if (q.startedFrom !== undefined) return 'calls_started';
  if (q.endedTo !== undefined) return 'calls_ended';
  return sortIndex(by, desc);
}

/**
 * The index a count reads: the narrowest filter's, whatever the order (a sort index would make
 * SQLite visit every row of the account to test the filter).
 */
function countIndexFor(q: CallQuery): string {
  if (q.parentCallSid !== undefined) return 'calls_parent_created';
  if (q.to !== undefined) return 'calls_to';
  if (q.from !== undefined) return 'calls_from';
  if (q.status !== undefined) return 'calls_status';
  if (q.direction !== undefined) return 'calls_direction';
  if (q.startedFrom !== undefined) return 'calls_started';
  if (q.endedTo !== undefined) return 'calls_ended';
  return 'calls_account_created';
}

/** WHERE clause of a calls query (its shape only: the values come from {@link paramsOf}). */
function whereOf(q: CallQuery): string {
  let sql = 'account_sid = ?';
  if (q.to !== undefined) sql += ' AND to_addr = ?';
  if (q.from !== undefined) sql += ' AND from_addr = ?';
  if (q.status !== undefined) sql += ' AND status = ?';
  if (q.direction !== undefined) sql += ' AND direction = ?';
  if (q.parentCallSid !== undefined) sql += ' AND parent_call_sid = ?';
  if (q.startedFrom !== undefined) sql += ' AND start_time >= ?';
  if (q.endedTo !== undefined) sql += ' AND end_time <= ?';
  return sql;
}

function paramsOf(q: CallQuery): unknown[] {
  const params: unknown[] = [q.accountSid];
  for (const v of [q.to, q.from, q.status, q.direction, q.parentCallSid, q.startedFrom, q.endedTo]) {
    if (v !== undefined) params.push(v);
  }
  return params;
}

/**
 * The two statements of a calls list: `count` (parameters: the filters', then the cap, -1 for
 * none) and `page` (the filters', then limit and offset).
 */
export function callListSql(q: CallQuery): { count: string; page: string } {
  const where = whereOf(q);
  const column = SORT_COLUMNS[q.sort?.by ?? 'dateCreated'];
  const order = q.sort?.order === 'desc' ? 'DESC' : 'ASC';
  // Ties go by creation, then sid. Sorting by creation itself names it once: a repeated term
  // makes SQLite re-sort every group of equal keys instead of reading the index in order.
  const terms = (t: string) =>
    column === 'date_created'
      ? `${t}date_created ${order}, ${t}sid`
      : `${t}${column} ${order}, ${t}date_created, ${t}sid`;
  return {
    // Counting stops at the cap: the LIMIT sits inside, so SQLite steps at most that far.
    count: `SELECT count(*) FROM (SELECT 1 FROM calls INDEXED BY ${countIndexFor(q)} WHERE ${where} LIMIT ?)`,
    // The page's keys come off the index alone (and stop after offset + limit entries); only
    // the page's rows are then read for their records.
    page: `SELECT c.data FROM (SELECT rowid AS r FROM calls INDEXED BY ${callIndexFor(q)} WHERE ${where}
        ORDER BY ${terms('')} LIMIT ? OFFSET ?) AS k
      CROSS JOIN calls AS c ON c.rowid = k.r ORDER BY ${terms('c.')}`,
  };
}

/** The columns of a calls row besides `sid` and `data`, in {@link rowOf}'s order. */
const COLUMNS = [
  'account_sid',
  'parent_call_sid',
  'direction',
  'from_addr',
  'to_addr',
  'status',
  'live',
  'date_created',
  'start_time',
  'end_time',
  'duration',
] as const;

type Row = Array<string | number | null>;

/** A call's values of {@link COLUMNS}. */
function rowOf(c: CallRecord, terminal: boolean): Row {
  return [
    c.accountSid,
    c.parentCallSid ?? null,
    c.direction,
    c.from,
    c.to,
    c.status,
    terminal ? 0 : 1,
    c.dateCreated,
    c.startTime ?? null,
    c.endTime ?? null,
    c.duration ?? 0,
  ];
}

/** What is committed of a live call: its account, stored JSON and column values. */
interface Committed {
  accountSid: string;
  data: string;
  row: Row;
}

/** The SQLite calls repository, told by retention which accounts lost calls. */
export interface SqliteCallRepository extends CallRepository {
  /** Calls of the account were deleted behind the repository's back: its version moves on. */
  removed(accountSid: string): void;
}

/**
 * The calls repository over SQLite. Writes go through the store's write queue (group commit);
 * reads first commit what is queued, so a reader sees every write made before it.
 */
export function sqliteCalls(db: Database.Database, writer: WriteQueue<SqliteWrite>): SqliteCallRepository {
  const writes = new RepositoryWrites(writer);
  const upsert = db.prepare(`INSERT INTO calls
      (sid, account_sid, parent_call_sid, direction, from_addr, to_addr, status, live, date_created,
       start_time, end_time, duration, data)
    VALUES (@sid, @accountSid, @parentCallSid, @direction, @from, @to, @status, @live, @dateCreated,
       @startTime, @endTime, @duration, @data)
    ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
      parent_call_sid = excluded.parent_call_sid, direction = excluded.direction,
      from_addr = excluded.from_addr, to_addr = excluded.to_addr, status = excluded.status,
      live = excluded.live, date_created = excluded.date_created, start_time = excluded.start_time,
      end_time = excluded.end_time, duration = excluded.duration, data = excluded.data`);
  const insertNew = db.prepare(`INSERT INTO calls (sid, ${COLUMNS.join(', ')}, data)
    VALUES (${Array(COLUMNS.length + 2)
      .fill('?')
      .join(', ')}) ON CONFLICT (sid) DO NOTHING`);
  const getOne = db.prepare('SELECT data FROM calls WHERE sid = ? AND account_sid = ?').pluck();
  const liveRows = db.prepare('SELECT data FROM calls WHERE live = 1 ORDER BY date_created, sid').pluck();

  // One pair of statements per query shape (filters present, sort): prepared once.
  const shapes = new Map<string, { count: Database.Statement; page: Database.Statement }>();
  const statementsOf = (q: CallQuery) => {
    const sql = callListSql(q);
    const key = sql.page;
    let shape = shapes.get(key);
    if (!shape) {
      shape = { count: db.prepare(sql.count).pluck(), page: db.prepare(sql.page).pluck() };
      shapes.set(key, shape);
    }
    return shape;
  };

  // Versions (see `CallRepository.version`): the write sequence number of each account's last
  // change, and of the last commit seen from another connection, which may have touched any.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const accountOfSid = db.prepare('SELECT account_sid FROM calls WHERE sid = ?').pluck();
  let seenDataVersion = dataVersion.get();
  let sequence = 0;
  let foreignWrite = 0;
  const versions = new Map<string, number>();

  // Queued writes by sid: a call that changes again before its write commits changes that
  // write's record (the engine reports every change; a reader only ever sees the latest).
  const queued = new Map<string, { record: CallRecord; done: Promise<void> }>();
  // What is committed of each live call (its account and stored JSON): an unchanged record is
  // not written again, and no query is needed to learn a live call's account.
  const live = new Map<string, Committed>();

  // Writes of calls not live here, whose row (if any) may belong to another account: that is
  // learnt when the write runs, not by a query of its own (a new call has no row). Until then a
  // version read commits the queue first.
  let unresolved = 0;

  /** Moves the account's version on; false when the call's previous account is not known yet. */
  const touched = (c: CallRecord): boolean => {
    const before = queued.get(c.sid)?.record.accountSid ?? live.get(c.sid)?.accountSid;
    sequence++;
    versions.set(c.accountSid, sequence);
    if (before !== undefined && before !== c.accountSid) versions.set(before, sequence);
    return before !== undefined;
  };

  /** Inserts a call with no committed row known here; one that exists is replaced. */
  const insertOrReplace = (c: CallRecord, data: string, terminal: boolean) => {
    if (insertNew.run(c.sid, ...rowOf(c, terminal), data).changes > 0) return;
    const before = accountOfSid.get(c.sid) as string | undefined;
    if (before !== undefined && before !== c.accountSid) versions.set(before, ++sequence);
    upsertRow(c, data, terminal);
  };

  const upsertRow = (c: CallRecord, data: string, terminal: boolean) =>
    upsert.run({
      sid: c.sid,
      accountSid: c.accountSid,
      parentCallSid: c.parentCallSid ?? null,
      direction: c.direction,
      from: c.from,
      to: c.to,
      status: c.status,
      live: terminal ? 0 : 1,
      dateCreated: c.dateCreated,
      startTime: c.startTime ?? null,
      endTime: c.endTime ?? null,
      duration: c.duration ?? 0,
      data,
    });

  // A call's later writes set only the columns that changed: SQLite then leaves alone the
  // indexes none of whose columns changed (most of the table's 17, on a status change).
  const updates = new Map<number, Database.Statement>();
  const updateOf = (mask: number) => {
    let statement = updates.get(mask);
    if (!statement) {
      const set = COLUMNS.filter((_, i) => mask & (1 << i)).map((column) => `${column} = ?`);
      statement = db.prepare(`UPDATE calls SET ${set.join(', ')}, data = ? WHERE sid = ?`);
      updates.set(mask, statement);
    }
    return statement;
  };
  /** Writes a call over its committed row; false when the row is gone (then it is upserted). */
  const updateRow = (before: Row, after: Row, data: string, sid: string): boolean => {
    let mask = 0;
    const values: Row[number][] = [];
    for (let i = 0; i < after.length; i++) {
      if (after[i] !== before[i]) {
        mask |= 1 << i;
        values.push(after[i]);
      }
    }
    return updateOf(mask).run(...values, data, sid).changes > 0;
  };

  const put = (c: CallRecord): Promise<void> => {
    const known = touched(c);
    const held = queued.get(c.sid);
    if (held) {
      held.record = c;
      return held.done;
    }
    const entry = { record: c, done: Promise.resolve() };
    let written: Committed | undefined;
    let terminal = false;
    let pending = !known;
    if (pending) unresolved++;
    const resolved = () => {
      if (!pending) return;
      pending = false;
      unresolved--;
    };
    entry.done = writes.write<void>({
      run: () => {
        if (queued.get(c.sid) === entry) queued.delete(c.sid);
        const record = entry.record;
        const data = JSON.stringify(record);
        terminal = TERMINAL_STATUSES.has(record.status);
        const row = rowOf(record, terminal);
        written = { accountSid: record.accountSid, data, row };
        const before = live.get(record.sid);
        if (before?.data === data) return;
        if (before && updateRow(before.row, row, data, record.sid)) return;
        if (before) upsertRow(record, data, terminal);
        else insertOrReplace(record, data, terminal);
      },
      committed: () => {
        resolved();
        if (!written) return;
        if (terminal) live.delete(c.sid);
        else live.set(c.sid, written);
      },
    });
    entry.done.catch(resolved);
    queued.set(c.sid, entry);
    return entry.done;
  };

  return {
    put,
    putMany: async (calls) => {
      await Promise.all(calls.map(put));
    },
    get: async (accountSid, sid) => {
      // A call whose write waits is read from the queue: its record there is the latest.
      const held = queued.get(sid)?.record;
      if (held?.accountSid === accountSid) return structuredClone(held);
      if (held) writes.flush();
      const data = getOne.get(sid, accountSid) as string | undefined;
      return data === undefined ? undefined : (JSON.parse(data) as CallRecord);
    },
    list: async (q) => {
      writes.flush();
      const { count, page } = statementsOf(q);
      const params = paramsOf(q);
      // -1: no LIMIT in SQLite.
      const total = count.get(...params, q.countLimit ?? -1) as number;
      const capped = q.countLimit !== undefined && total >= q.countLimit;
      const order = { column: SORT_COLUMNS[q.sort?.by ?? 'dateCreated'], desc: q.sort?.order === 'desc' };
      const offset =
        (q.afterSid === undefined
          ? undefined
          : offsetAfter(
              db,
              { table: 'calls', where: whereOf(q), params, order, index: callIndexFor(q) },
              q.afterSid,
            )) ?? q.offset;
      if (q.limit <= 0 || (offset >= total && !capped)) return { items: [], total, offset };
      const rows = page.all(...params, q.limit, offset) as string[];
      return { items: rows.map((d) => JSON.parse(d) as CallRecord), total, offset };
    },
    listLive: async () => {
      writes.flush();
      return (liveRows.all() as string[]).map((d) => JSON.parse(d) as CallRecord);
    },
    removed: (accountSid) => {
      versions.set(accountSid, ++sequence);
    },
    version: async (accountSid) => {
      if (unresolved > 0) writes.flush();
      // Still queued (the store cannot write): whose calls they move is not known yet.
      if (unresolved > 0) return ++sequence;
      const v = dataVersion.get();
      if (v !== seenDataVersion) {
        seenDataVersion = v;
        foreignWrite = ++sequence;
      }
      return Math.max(versions.get(accountSid) ?? 0, foreignWrite);
    },
  };
}
