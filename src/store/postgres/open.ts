import pg from 'pg';
import type { CallRecord, ConferenceRecord } from '../../engine/records.js';
import type { Store } from '../ports.js';
import { closeInterruptedCalls } from '../recover.js';
import type { Prunable } from '../retention.js';
import { randomSid, type SidFactory } from '../sid.js';
import { postgresCalls } from './calls.js';
import { postgresClients } from './clients.js';
import { postgresConferences } from './conferences.js';
import type { PostgresConnection } from './connection.js';
import { advanceEpoch, checkEpoch, claimEpoch, currentEpoch, FencedError, type NodeEpoch } from './leases.js';
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
  /** How long opening a connection may take before the request fails, ms. Default 5,000. */
  connectTimeoutMs?: number;
  /**
   * How long a query may wait for the server's answer before it fails (ms): a frozen server or a
   * silent network fails the query rather than holding it, and whatever waits on it, forever.
   * Reads then answer 503, writes wait in the write queue and are retried. Default 10,000.
   */
  queryTimeoutMs?: number;
  /** Most connections the pool opens. Default 10. */
  poolSize?: number;
  /**
   * This node's name in a cluster: recorded as the owner of the calls it writes. On open, calls
   * it owned that are still live (it stopped without closing them) are closed like SQLite's on
   * restart. Without it, nothing is closed on open. With it, the node takes a new epoch (its
   * fencing token, see `leases.ts`) and every transaction it commits checks it still holds it.
   */
  nodeId?: string;
  /**
   * A transaction left open and idle this long is ended by the server (ms), so a node frozen
   * in the middle of one cannot hold a takeover back. Default: the server's setting.
   */
  idleTransactionMs?: number;
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
  /** The nodes that own live calls or rooms. */
  liveOwners(): Promise<string[]>;
  /** The node that owns a live call of the account, or undefined when it is not live. */
  ownerOf(accountSid: string, callSid: string): Promise<string | undefined>;
  /** Resolves once every write started so far is committed. */
  settled(): Promise<void>;
  /** This node's fencing token and what moves it (with `nodeId` only). */
  readonly lease?: StoreLease;
  /** The pool, for queries of the layers above (e.g. cluster bookkeeping). */
  readonly pool: pg.Pool;
  /**
   * Pool, writer and reader, shared with the designer, Call Queuing and enterprise repositories
   * of the same database (`postgresDesignerStore(store.connection)`...); closing this store
   * closes them too.
   */
  readonly connection: PostgresConnection;
}

/** A node's fencing token in the store (see `leases.ts`). */
export interface StoreLease {
  /** The node and the epoch its writes carry. */
  readonly holder: Readonly<NodeEpoch>;
  /**
   * Moves this node to a new epoch if it still holds its own (its lease lapsed but nobody took
   * it over): true, or false when it was fenced off.
   */
  renew(): Promise<boolean>;
  /** Fences `node` off from `epoch` (a survivor taking it over): false when it had moved on. */
  supersede(node: string, epoch: number): Promise<boolean>;
  /** The epoch `node` holds now; undefined when it never joined. */
  epochOf(node: string): Promise<number | undefined>;
  /** `listener` hears the first write refused because this node's epoch was superseded. */
  onFenced(listener: (err: FencedError) => void): () => void;
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
    options: connectionOptions(options),
    // A server that does not answer fails a request after this, rather than holding it forever.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: queryTimeout(options.queryTimeoutMs),
    types,
  });
  // A client losing its connection, idle in the pool or checked out (in a transaction, a read),
  // must not crash the process: the pool drops it, the query in flight fails, the next one
  // reconnects (pg emits the checked-out client's error with no listener of the pool's).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const node = options.nodeId ?? null;
  let holder: NodeEpoch | undefined;
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client, options.schema, POSTGRES_SCHEMAS);
      if (node !== null) holder = { node, epoch: await claimEpoch(client, node) };
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw new Error(`cannot open the PostgreSQL store: ${err instanceof Error ? err.message : String(err)}`);
  }
  const fenced = new Set<(err: FencedError) => void>();
  let told = false;
  const fence = holder
    ? async (client: pg.PoolClient) => {
        try {
          await checkEpoch(client, holder as NodeEpoch);
        } catch (err) {
          if (err instanceof FencedError && !told) {
            told = true;
            for (const listener of [...fenced]) listener(err);
          }
          throw err;
        }
      }
    : undefined;
  const writer = new GroupWriter(pool, {}, fence);
  const db: Reader = createReader(pool, writer);
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
    clients: postgresClients(db, writer),
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
    liveOwners: async () =>
      (
        await db.query<{ owner_node: string }>(
          `SELECT owner_node FROM calls WHERE live AND owner_node IS NOT NULL
           UNION SELECT owner_node FROM conferences WHERE status <> 'completed' AND owner_node IS NOT NULL`,
          [],
        )
      ).map((r) => r.owner_node),
    ownerOf: async (accountSid, callSid) => {
      const [row] = await db.query<{ owner_node: string | null }>(
        'SELECT owner_node FROM calls WHERE sid = $1 AND account_sid = $2 AND live',
        [callSid, accountSid],
      );
      return row?.owner_node ?? undefined;
    },
    lease: holder && storeLease(pool, writer, holder, fenced),
    settled: () => writer.settled(),
    pruneBatch: postgresPruner(pool),
    pool,
    connection: { pool, db, writer },
  };
}

/** The client's query timeout, checked. */
function queryTimeout(ms = 10_000): number {
  if (!Number.isInteger(ms) || ms < 1) {
    throw new Error(`query timeout must be a whole number of ms >= 1 (got ${ms})`);
  }
  return ms;
}

/** The `options` of the pool's connections: search path and idle transaction timeout. */
function connectionOptions(options: PostgresStoreOptions): string | undefined {
  const parts: string[] = [];
  if (options.schema) parts.push(`-c search_path=${options.schema}`);
  const idle = options.idleTransactionMs;
  if (idle !== undefined) {
    if (!Number.isInteger(idle) || idle < 1) {
      throw new Error(`idle transaction timeout must be a whole number of ms >= 1 (got ${idle})`);
    }
    parts.push(`-c idle_in_transaction_session_timeout=${idle}`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** Epoch moves go through the writer: between two transactions, never under one in flight. */
function storeLease(
  pool: pg.Pool,
  writer: GroupWriter,
  holder: NodeEpoch,
  fenced: Set<(err: FencedError) => void>,
): StoreLease {
  return {
    holder,
    renew: async () => {
      try {
        // Taken up only once committed: the next transaction checks the new epoch.
        holder.epoch = await writer.write<number>({
          run: async (client) => {
            const next = await advanceEpoch(client, holder.node, holder.epoch);
            if (next === undefined) throw new FencedError(holder.node, holder.epoch);
            return next;
          },
        });
        return true;
      } catch (err) {
        if (err instanceof FencedError) return false;
        throw err;
      }
    },
    supersede: async (node, epoch) =>
      (await writer.write<number | undefined>({ run: (client) => advanceEpoch(client, node, epoch) })) !==
      undefined,
    epochOf: (node) => currentEpoch(pool, node),
    onFenced: (listener) => {
      fenced.add(listener);
      return () => fenced.delete(listener);
    },
  };
}
