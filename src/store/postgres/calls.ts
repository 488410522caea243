import type pg from 'pg';
import type { CallRecord } from '../../engine/records.js';
import { TERMINAL_STATUSES } from '../../engine/records.js';
import type { CallRepository } from '../ports.js';
import type { CallQuery, CallSortKey } from '../types.js';
import { FilterBuilder, pageQuery, type Reader } from './paging.js';
import type { GroupWriter } from './writer.js';

const SORT_COLUMNS: Record<CallSortKey, string> = {
  dateCreated: 'date_created',
  from: 'from_addr',
  to: 'to_addr',
  direction: 'direction',
  status: 'status',
  duration: 'duration',
};

/** Rows per upsert statement: bounded so parameters and memory stay small. */
const CHUNK = 2000;

// Bumps the version of every account whose calls the upsert touches: the new owners' and, for
// a call moving account, the old owner's (read before the upsert: one snapshot for the whole
// statement). Then inserts or replaces the rows, unnested from one array per column.
const UPSERT = `WITH touched AS (
    INSERT INTO call_versions (account_sid, version)
    SELECT a, nextval('call_version_seq') FROM (
      SELECT DISTINCT unnest($2::text[]) AS a
      UNION SELECT account_sid FROM calls WHERE sid = ANY($1::text[])) AS t
    ON CONFLICT (account_sid) DO UPDATE SET version = excluded.version RETURNING 1)
  INSERT INTO calls (sid, account_sid, parent_call_sid, direction, from_addr, to_addr, status, live,
    owner_node, date_created, start_time, end_time, duration, data)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
    $7::text[], $8::boolean[], $9::text[], $10::bigint[], $11::bigint[], $12::bigint[],
    $13::integer[], $14::text[])
  ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
    parent_call_sid = excluded.parent_call_sid, direction = excluded.direction,
    from_addr = excluded.from_addr, to_addr = excluded.to_addr, status = excluded.status,
    live = excluded.live, owner_node = excluded.owner_node, date_created = excluded.date_created,
    start_time = excluded.start_time, end_time = excluded.end_time, duration = excluded.duration,
    data = excluded.data`;

/** Upserts calls in as few statements as their number allows; the last record of a sid wins. */
async function upsertCalls(client: pg.ClientBase, calls: readonly CallRecord[], node: string | null) {
  const latest = new Map<string, CallRecord>();
  for (const c of calls) {
    latest.delete(c.sid);
    latest.set(c.sid, c);
  }
  const all = [...latest.values()];
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    const columns: unknown[][] = Array.from({ length: 14 }, () => new Array(chunk.length));
    chunk.forEach((c, j) => {
      const row = [
        c.sid,
        c.accountSid,
        c.parentCallSid ?? null,
        c.direction,
        c.from,
        c.to,
        c.status,
        !TERMINAL_STATUSES.has(c.status),
        node,
        c.dateCreated,
        c.startTime ?? null,
        c.endTime ?? null,
        c.duration ?? 0,
        JSON.stringify(c),
      ];
      for (let k = 0; k < row.length; k++) columns[k][j] = row[k];
    });
    await client.query({ name: 'rcml_calls_upsert', text: UPSERT, values: columns });
  }
}

function filterOf(q: CallQuery) {
  return new FilterBuilder()
    .add('account_sid = ?', q.accountSid)
    .add('to_addr = ?', q.to)
    .add('from_addr = ?', q.from)
    .add('status = ?', q.status)
    .add('direction = ?', q.direction)
    .add('parent_call_sid = ?', q.parentCallSid)
    .add('start_time >= ?', q.startedFrom)
    .add('end_time <= ?', q.endedTo)
    .build();
}

/** The calls repository over PostgreSQL; `node` is recorded as the owner of the calls it writes. */
export function postgresCalls(db: Reader, writer: GroupWriter, node: string | null): CallRepository {
  // Calls put during one turn join one write: one statement for the lot.
  let open: { calls: CallRecord[]; done: Promise<void> } | undefined;
  const put = (calls: readonly CallRecord[]): Promise<void> => {
    if (!open) {
      const batch: { calls: CallRecord[]; done: Promise<void> } = { calls: [], done: Promise.resolve() };
      open = batch;
      batch.done = writer.write<void>({
        run: async (client) => {
          if (open === batch) open = undefined;
          await upsertCalls(client, batch.calls, node);
        },
      });
    }
    for (const c of calls) open.calls.push(structuredClone(c));
    return open.done;
  };
  const parse = (rows: Array<{ data: string }>) => rows.map((r) => JSON.parse(r.data) as CallRecord);

  return {
    put: (c) => put([c]),
    putMany: (calls) => (calls.length === 0 ? Promise.resolve() : put(calls)),
    get: async (accountSid, sid) =>
      parse(
        await db.query('SELECT data FROM calls WHERE sid = $1 AND account_sid = $2', [sid, accountSid]),
      )[0],
    list: (q) =>
      pageQuery<CallRecord>(db, 'calls', filterOf(q), q, {
        column: SORT_COLUMNS[q.sort?.by ?? 'dateCreated'],
        desc: q.sort?.order === 'desc',
      }),
    listLive: async () =>
      parse(await db.query('SELECT data FROM calls WHERE live ORDER BY date_created, sid', [])),
    version: async (accountSid) => {
      const [row] = await db.query<{ version: string }>(
        'SELECT version FROM call_versions WHERE account_sid = $1',
        [accountSid],
      );
      return row ? Number(row.version) : 0;
    },
  };
}
