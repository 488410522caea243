import type Database from 'better-sqlite3';

/** Statements by SQL text, per database: the `afterSid` queries of a list take few shapes. */
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
