/** Paging of PostgreSQL lists: one page and its total in one round trip, keyset offsets after a sid. */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Page, Window } from '../types.js';
import { StoreUnavailableError } from '../write-queue.js';
import { type GroupWriter, transientPostgresError } from './writer.js';

/** Reads after the writes made before them (see {@link GroupWriter}), as prepared statements. */
export interface Reader {
  query<R extends pg.QueryResultRow>(text: string, values: readonly unknown[]): Promise<R[]>;
}

export function createReader(pool: pg.Pool, writer: GroupWriter): Reader {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `rcml_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async query<R extends pg.QueryResultRow>(text: string, values: readonly unknown[]) {
      if (!writer.idle) await writer.settled();
      let res: pg.QueryResult<R>;
      try {
        res = await pool.query<R>({ name: nameOf(text), text, values: values as unknown[] });
      } catch (err) {
        // The server, not the query, failed: callers answer "unavailable, try again" (503).
        if (transientPostgresError(err)) {
          throw new StoreUnavailableError(
            `the store cannot read for now: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        throw err;
      }
      return res.rows;
    },
  };
}

/** A list's order: `column <dir>, date_created, sid`, or `date_created <dir>, sid` by creation. */
export interface ListOrder {
  column: string;
  desc: boolean;
}

/** The filters of a list: SQL over `$1..$n` and their values. */
export interface Filter {
  where: string;
  values: unknown[];
}

/** Builds a {@link Filter} part by part, numbering the placeholders. */
export class FilterBuilder {
  private readonly parts: string[] = [];
  readonly values: unknown[] = [];

  /** Adds `sql`, whose `?` is the value's placeholder, when the value is given. */
  add(sql: string, value: unknown): this {
    if (value === undefined) return this;
    this.values.push(value);
    this.parts.push(sql.replace('?', `$${this.values.length}`));
    return this;
  }

  build(): Filter {
    return { where: this.parts.join(' AND '), values: this.values };
  }
}

function orderTerms({ column, desc }: ListOrder): string {
  const dir = desc ? 'DESC' : 'ASC';
  return column === 'date_created' ? `date_created ${dir}, sid` : `${column} ${dir}, date_created, sid`;
}

/** Rows strictly before the anchor `(key, created, sid)` in the order: SQL from `$first`, and its values. */
function beforeAnchor(
  { column, desc }: ListOrder,
  first: number,
  a: { k: unknown; d: unknown; sid: string },
): { sql: string; values: unknown[] } {
  const [p, q, r] = [`$${first}`, `$${first + 1}`, `$${first + 2}`];
  if (column === 'date_created') {
    const sql = desc
      ? `(date_created > ${p} OR (date_created = ${p} AND sid < ${q}))`
      : `(date_created, sid) < (${p}, ${q})`;
    return { sql, values: [a.d, a.sid] };
  }
  const sql = desc
    ? `(${column} > ${p} OR (${column} = ${p} AND (date_created, sid) < (${q}, ${r})))`
    : `(${column}, date_created, sid) < (${p}, ${q}, ${r})`;
  return { sql, values: [a.k, a.d, a.sid] };
}

/** The offset just past `afterSid` in the filtered, ordered list, or undefined when it is not in it. */
async function offsetAfter(
  db: Reader,
  table: string,
  filter: Filter,
  order: ListOrder,
  afterSid: string,
): Promise<number | undefined> {
  const n = filter.values.length;
  const [anchor] = await db.query<{ k: unknown; d: string; sid: string }>(
    `SELECT ${order.column} AS k, date_created AS d, sid FROM ${table} WHERE ${filter.where} AND sid = $${n + 1}`,
    [...filter.values, afterSid],
  );
  if (!anchor) return undefined;
  const before = beforeAnchor(order, n + 1, anchor);
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${filter.where} AND ${before.sql}`,
    [...filter.values, ...before.values],
  );
  return row.n + 1;
}

/**
 * One page of a filtered, ordered list over a table with `sid`, `date_created` and `data` (the
 * record as JSON) columns. The page's rows carry the total (counted up to `countLimit`), so a
 * non-empty page costs one round trip.
 */
export async function pageQuery<T>(
  db: Reader,
  table: string,
  filter: Filter,
  w: Window & { countLimit?: number },
  order: ListOrder = { column: 'date_created', desc: false },
): Promise<Page<T>> {
  const offset =
    (w.afterSid === undefined ? undefined : await offsetAfter(db, table, filter, order, w.afterSid)) ??
    w.offset;
  const n = filter.values.length;
  // LIMIT NULL is no limit.
  const count = `SELECT count(*)::int FROM (SELECT 1 FROM ${table} WHERE ${filter.where} LIMIT $${n + 1}) AS c`;
  const cap = w.countLimit ?? null;
  if (w.limit > 0) {
    const rows = await db.query<{ total: number; data: string }>(
      `SELECT (${count}) AS total, data FROM ${table} WHERE ${filter.where}
        ORDER BY ${orderTerms(order)} LIMIT $${n + 2} OFFSET $${n + 3}`,
      [...filter.values, cap, w.limit, offset],
    );
    if (rows.length > 0) {
      return { items: rows.map((r) => JSON.parse(r.data) as T), total: rows[0].total, offset };
    }
  }
  const [row] = await db.query<{ count: number }>(count, [...filter.values, cap]);
  return { items: [], total: row.count, offset };
}
