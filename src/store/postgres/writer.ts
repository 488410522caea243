import type pg from 'pg';
import { WriteQueue, type WriteQueueOptions } from '../write-queue.js';

/** One statement of a write. */
export interface Statement {
  text: string;
  values: unknown[];
  /** Named statements are prepared once per connection. */
  name?: string;
}

/**
 * One logical write: its statements run in order, in one transaction with the others of its
 * batch. `run` may instead drive the client itself (for multi-statement writes that depend on
 * earlier results); it must not commit.
 */
export type Write = { statements: Statement[] } | { run: (client: pg.PoolClient) => Promise<unknown> };

// SQLSTATE classes and codes that say the database cannot write for now: connection
// exceptions, insufficient resources (disk full), operator intervention (shutdown), system
// errors (I/O), serialization failures and deadlocks.
const TRANSIENT_SQLSTATE = /^(08|53|57P0|58|40001|40P01)/;
const TRANSIENT_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/** Whether an error of a PostgreSQL write is worth retrying: the server, not the write, failed. */
export function transientPostgresError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SOCKET.has(code);
  // The pool's own failures carry no code.
  return err instanceof Error && (unanswered(err) || /^Connection terminated/.test(err.message));
}

/**
 * Whether `err` is a query or a connection the server did not answer in time (pg's
 * `query_timeout`, `connectionTimeoutMillis`): the server is frozen or the network silent, and
 * the connection, its query still in flight, is good for nothing but closing.
 */
export function unanswered(err: unknown): boolean {
  return (
    err instanceof Error && /^(Query read timeout|timeout exceeded when trying to connect)/.test(err.message)
  );
}

/** Checks at the start of each transaction that this writer may still write (throws if not). */
export type Fence = (client: pg.PoolClient) => Promise<void>;

/** Runs the writes on one connection, in one transaction: their results, or a throw after rolling back. */
async function commitOnPool(pool: pg.Pool, batch: readonly Write[], fence?: Fence): Promise<unknown[]> {
  const client = await pool.connect();
  const results: unknown[] = [];
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await fence?.(client);
    for (const write of batch) {
      if ('run' in write) {
        results.push(await write.run(client));
        continue;
      }
      let last: unknown;
      for (const s of write.statements) last = await client.query(s);
      results.push(last);
    }
    await client.query('COMMIT');
    return results;
  } catch (err) {
    // A connection whose query went unanswered is closed, not rolled back (that would wait as
    // long again) nor handed back to the pool: the server ends its transaction with it.
    if (unanswered(err)) broken = err as Error;
    else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Group commit over a pool (see {@link WriteQueue}): every write made during one event-loop
 * turn is committed in one transaction, in the order it was made, on one connection. Writes
 * therefore never overtake one another (a call's `completed` never lands before its `ringing`),
 * and a burst costs one commit. When a batch fails, each of its writes is retried alone, so one
 * bad write fails only itself; while the server cannot be reached or cannot write, writes wait
 * and are retried with backoff.
 */
export class GroupWriter extends WriteQueue<Write> {
  /** `fence`: run first in every transaction (a node's epoch check, see `leases.ts`). */
  constructor(pool: pg.Pool, options: WriteQueueOptions = {}, fence?: Fence) {
    super((batch) => commitOnPool(pool, batch, fence), { transient: transientPostgresError, ...options });
  }

  /** Queues a write; resolves with the last statement's result (or `run`'s) once committed. */
  override write<T = pg.QueryResult>(write: Write, options: { failFast?: boolean } = {}): Promise<T> {
    return super.write<T>(write, options);
  }
}
