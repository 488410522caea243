/** Paging of SQLite lists: one page of a filtered, ordered table, and keyset offsets after a sid. */
import type Database from 'better-sqlite3';
import type { Page, Window } from '../types.js';

/** Statements by SQL text, per database: the queries of a list take few shapes. */
const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function statement(db: Database.Database, sql: string): Database.Statement {
  let cache = prepared.get(db);
  if (!cache) {
    cache = new Map();
    prepared.set(db, cache);
  }
  let st = cache.get(sql);
  if (!st) {
    st = db.prepare(sql);
    cache.set(sql, st);
  }
  return st;
}

/** A list's order: `column <dir>, date_created, sid`, or `date_created <dir>, sid` by creation. */
export interface ListOrder {
  column: string;
  desc: boolean;
}

/** Rows strictly before the anchor `(key, created, sid)` in the order; params from {@link anchorParams}. */
function beforeAnchor({ column, desc }: ListOrder): string {
  if (column === 'date_created') {
    return desc ? '(date_created > ? OR (date_created = ? AND sid < ?))' : '(date_created, sid) < (?, ?)';
  }
  return desc
    ? `(${column} > ? OR (${column} = ? AND (date_created, sid) < (?, ?)))`
    : `(${column}, date_created, sid) < (?, ?, ?)`;
}

function anchorParams({ column, desc }: ListOrder, a: { k: unknown; d: number; sid: string }): unknown[] {
  if (column === 'date_created') return desc ? [a.d, a.d, a.sid] : [a.d, a.sid];
  return desc ? [a.k, a.k, a.d, a.sid] : [a.k, a.d, a.sid];
}

/**
 * The offset just past `afterSid` in a filtered, ordered list (keyset paging), or undefined when
 * the sid names no record the filters keep. `where` and `params` are the list's filters;
 * `index` the one its page reads (it holds the order's columns, so counting stays in the index).
 */
export function offsetAfter(
  db: Database.Database,
  list: { table: string; where: string; params: readonly unknown[]; order: ListOrder; index?: string },
  afterSid: string,
): number | undefined {
  const { table, where, params, order } = list;
  const anchor = statement(
    db,
    `SELECT ${order.column} AS k, date_created AS d, sid FROM ${table} WHERE ${where} AND sid = ?`,
  ).get(...params, afterSid) as { k: unknown; d: number; sid: string } | undefined;
  if (!anchor) return undefined;
  const indexed = list.index ? ` INDEXED BY ${list.index}` : '';
  const before = statement(
    db,
    `SELECT count(*) FROM ${table}${indexed} WHERE ${where} AND ${beforeAnchor(order)}`,
  )
    .pluck()
    .get(...params, ...anchorParams(order, anchor)) as number;
  return before + 1;
}

const BY_CREATION: ListOrder = { column: 'date_created', desc: false };

/**
 * One page of a filtered, ordered list over a table with `sid`, `date_created` and `data` (the
 * record as JSON) columns. `parts` are the filters, ANDed, with their `params`.
 */
export function pageQuery<T>(
  db: Database.Database,
  table: string,
  parts: readonly string[],
  params: readonly unknown[],
  w: Window,
  order: ListOrder = BY_CREATION,
): Page<T> {
  const where = parts.join(' AND ');
  const total = statement(db, `SELECT count(*) FROM ${table} WHERE ${where}`)
    .pluck()
    .get(...params) as number;
  const offset =
    (w.afterSid === undefined ? undefined : offsetAfter(db, { table, where, params, order }, w.afterSid)) ??
    w.offset;
  // Ties go by creation, then sid. By creation itself the order names date_created once (a
  // repeated term re-sorts each group of ties).
  const dir = order.desc ? 'DESC' : 'ASC';
  const terms =
    order.column === 'date_created'
      ? `date_created ${dir}, sid`
      : `${order.column} ${dir}, date_created, sid`;
  const rows = statement(db, `SELECT data FROM ${table} WHERE ${where} ORDER BY ${terms} LIMIT ? OFFSET ?`)
    .pluck()
    .all(...params, w.limit, offset) as string[];
  return { items: rows.map((d) => JSON.parse(d) as T), total, offset };
}
