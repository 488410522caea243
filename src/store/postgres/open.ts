import pg from 'pg';
import type { CallRecord, ConferenceRecord } from '../../engine/records.js';
import type { Store } from '../ports.js';
import { closeInterruptedCalls } from '../recover.js';
import type { Prunable } from '../retention.js';
import { randomSid, type SidFactory } from '../sid.js';
import { postgresCalls } from './calls.js';
import { postgresConferences } from './conferences.js';
import type { PostgresConnection } from './connection.js';
import { migratePostgres } from './migrations.js';
import { createReader, type Reader } from './paging.js';
import { postgresPruner } from './prune.js';
import {
  postgresAccounts,
  postgresApplications,
  postgresGathers,
  postgresNotifications,
  postgresRecordings,
} from './records.js';
import { POSTGRES_SCHEMAS } from './schemas.js';
import { GroupWriter } from './writer.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** Connection string, e.g. `postgres://user@127.0.0.1:5432/rcml`. */
  url: string;
  /**
   * Schema holding the tables (created when missing). Several platforms can share a database,
   * one schema each. Default: the connection's search path (normally `public`).
   */
  schema?: string;
  /** Most connections the pool opens. Default 10. */
  poolSize?: number;
  /**
   * This node's name in a cluster: recorded as the owner of the calls it writes. On open, calls
   * it owned that are still live (it stopped without closing them) are closed like SQLite's on
   * restart. Without it, nothing is closed on open.
   */
  nodeId?: string;
  /** Clock used to close calls left live. Default `Date.now`. */
  now?: () => number;
  /** Sids of the notifications written on open. Default random. */
  sids?: SidFactory;
}

/** A PostgreSQL store, plus what opening it found and what a cluster needs beyond the ports. */
export interface PostgresStore extends Store, Prunable {
  /** Sids of calls this node left live when it last stopped, now closed. */
  readonly interruptedCalls: readonly string[];
  /** Live calls owned by `node` (the node that last wrote them). */
  liveCallsOf(node: string): Promise<CallRecord[]>;
  /** Conference rooms run by `node` (the node that last wrote them) that have not ended. */
  liveRoomsOf(node: string): Promise<ConferenceRecord[]>;
  /** The node that owns a live call of the account, or undefined when it is not live. */
  ownerOf(accountSid: string, callSid: string): Promise<string | undefined>;
  /** Resolves once every write started so far is committed. */
  settled(): Promise<void>;
  /** The pool, for queries of the layers above (e.g. cluster bookkeeping). */
  readonly pool: pg.Pool;
  /**
   * Pool, writer and reader, shared with the designer, Call Queuing and enterprise repositories
   * of the same database (`postgresDesignerStore(store.connection)`...); closing this store
   * closes them too.
   */
  readonly connection: PostgresConnection;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// Bigint times come back as numbers (ms since the epoch fit), for this store's pools only.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Opens the store in a PostgreSQL database: a connection pool, the schema migrated to the
 * current version (`rcml_migrations` holds the versions applied, and each other group of tables
 * has its version table: see `POSTGRES_SCHEMAS`), writes grouped into one
 * transaction per event-loop turn (see `GroupWriter`), and recordings' WAV bytes in their rows.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error(
      `schema must be lower-case letters, digits and _ (got ${JSON.stringify(options.schema)})`,
    );
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    types,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client, options.schema, POSTGRES_SCHEMAS);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL store: ${err instanceof Error ? err.message : String(err)}`);
  }
  const writer = new GroupWriter(pool);
  const db: Reader = createReader(pool, writer);
  const node = options.nodeId ?? null;
  let closing: Promise<void> | undefined;
  const liveCallsOf = async (owner: string) =>
    (
      await db.query<{ data: string }>(
        'SELECT data FROM calls WHERE live AND owner_node = $1 ORDER BY date_created, sid',
        [owner],
      )
    ).map((r) => JSON.parse(r.data) as CallRecord);
  const liveRoomsOf = async (owner: string) =>
    (
      await db.query<{ data: string }>(
        "SELECT data FROM conferences WHERE status <> 'completed' AND owner_node = $1 ORDER BY date_created, sid",
        [owner],
      )
    ).map((r) => JSON.parse(r.data) as ConferenceRecord);
  const store: Store = {
    accounts: postgresAccounts(db, writer),
    calls: postgresCalls(db, writer, node),
    recordings: postgresRecordings(db, writer),
    gathers: postgresGathers(db, writer),
    notifications: postgresNotifications(db, writer),
    applications: postgresApplications(db, writer),
    conferences: postgresConferences(db, writer, node),
    writes: writer,
    close: () => {
      closing ??= writer.settled().then(() => {
        writer.close();
        return pool.end();
      });
      return closing;
    },
  };
  const interrupted =
    node === null
      ? []
      : await closeInterruptedCalls(
          store,
          (options.now ?? Date.now)(),
          options.sids ?? randomSid,
          await liveCallsOf(node),
          undefined,
          await liveRoomsOf(node),
        );
  return {
    ...store,
    interruptedCalls: interrupted.map((c) => c.sid),
    liveCallsOf,
    liveRoomsOf,
    ownerOf: async (accountSid, callSid) => {
      const [row] = await db.query<{ owner_node: string | null }>(
        'SELECT owner_node FROM calls WHERE sid = $1 AND account_sid = $2 AND live',
        [callSid, accountSid],
      );
      return row?.owner_node ?? undefined;
    },
    settled: () => writer.settled(),
    pruneBatch: postgresPruner(pool),
    pool,
    connection: { pool, db, writer },
  };
}
