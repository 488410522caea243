/**
 * What the repositories of a PostgreSQL database share: one pool, one group-commit writer and
 * the reader that sees its writes. The platform store opens it; the designer, Call Queuing and
 * enterprise repositories are built over the same one (see their `postgres.ts`).
 */
import type pg from 'pg';
import type { Reader } from './paging.js';
import type { GroupWriter, Write } from './writer.js';

export interface PostgresConnection {
  readonly pool: pg.Pool;
  /** Reads after every write queued before them. */
  readonly db: Reader;
  /** Every write, grouped into one transaction per event-loop turn. */
  readonly writer: GroupWriter;
}

/** A write of one statement, prepared under `name`. */
export const one = (name: string, text: string, values: unknown[]): Write => ({
  statements: [{ name, text, values }],
});

/** Writes a client waits for: refused at once, not held, while the database cannot write. */
export const CLIENT_WRITE = { failFast: true };

/** Whether `err` is PostgreSQL's unique violation (SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: unknown } | undefined)?.code === '23505';

/** The records of rows holding them as JSON text in `data`. */
export const parsed = <T>(rows: ReadonlyArray<{ data: string }>): T[] =>
  rows.map((r) => JSON.parse(r.data) as T);

/** A `bytea` value as the bytes repositories hand out (a copy, not a view of the pool's buffer). */
export const bytesOf = (value: Buffer): Uint8Array => new Uint8Array(value);

/** Bytes as a `bytea` parameter, without copying. */
export const byteaOf = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
