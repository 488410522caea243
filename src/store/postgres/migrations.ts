import type pg from 'pg';
import { upgradeAccountRecord } from '../credentials.js';

/** One released schema step. Never edit a released step: add one. */
export interface PgMigrationStep {
  version: number;
  name: string;
  sql: string;
  /** A step SQL alone cannot do, run after `sql` in the same transaction. */
  run?: (client: pg.ClientBase) => Promise<void>;
}

/**
 * The steps of one group of tables, recorded in a version table of their own (as in SQLite:
 * the platform's records, the designer's, Call Queuing's and the enterprise areas' evolve
 * without renumbering each other).
 */
export interface PgMigrationSet {
  /** Version table, e.g. `rcml_migrations`. */
  table: string;
  /** What the tables are, for errors (`database`, `designer`...). */
  what: string;
  steps: ReadonlyArray<PgMigrationStep>;
}

/**
 * Schema changes of the platform's records in order. A database records the versions it has
 * applied in `rcml_migrations`; opening it applies the rest (see {@link migratePostgres}) under
 * an advisory lock so nodes starting together migrate once.
 *
 * Each table keeps the columns it filters and sorts on, plus the whole record as JSON text.
 * Text columns sort with the "C" collation (code point order), like the memory and SQLite
 * stores; times are milliseconds since the epoch (bigint).
 */
export const PG_MIGRATIONS: ReadonlyArray<PgMigrationStep> = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE accounts (
        sid text COLLATE "C" PRIMARY KEY, date_created bigint NOT NULL, data text NOT NULL);
      CREATE TABLE calls (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        parent_call_sid text COLLATE "C", direction text COLLATE "C" NOT NULL,
        from_addr text COLLATE "C" NOT NULL, to_addr text COLLATE "C" NOT NULL,
        status text COLLATE "C" NOT NULL, live boolean NOT NULL, owner_node text COLLATE "C",
        date_created bigint NOT NULL, start_time bigint, end_time bigint, duration integer NOT NULL,
        data text NOT NULL);
      CREATE INDEX calls_account_created ON calls (account_sid, date_created, sid);
      CREATE INDEX calls_to ON calls (account_sid, to_addr, date_created, sid);
      CREATE INDEX calls_from ON calls (account_sid, from_addr, date_created, sid);
      CREATE INDEX calls_status ON calls (account_sid, status, date_created, sid);
      CREATE INDEX calls_status_desc ON calls (account_sid, status DESC, date_created, sid);
      CREATE INDEX calls_direction ON calls (account_sid, direction, date_created, sid);
      CREATE INDEX calls_direction_desc ON calls (account_sid, direction DESC, date_created, sid);
      CREATE INDEX calls_duration ON calls (account_sid, duration, date_created, sid);
      CREATE INDEX calls_duration_desc ON calls (account_sid, duration DESC, date_created, sid);
      CREATE INDEX calls_to_duration ON calls (account_sid, to_addr, duration, date_created, sid);
      CREATE INDEX calls_to_duration_desc ON calls (account_sid, to_addr, duration DESC, date_created, sid);
      CREATE INDEX calls_from_duration ON calls (account_sid, from_addr, duration, date_created, sid);
      CREATE INDEX calls_from_duration_desc
        ON calls (account_sid, from_addr, duration DESC, date_created, sid);
      CREATE INDEX calls_parent_created ON calls (account_sid, parent_call_sid, date_created, sid)
        WHERE parent_call_sid IS NOT NULL;
      CREATE INDEX calls_started ON calls (account_sid, start_time, date_created, sid)
        WHERE start_time IS NOT NULL;
      CREATE INDEX calls_ended ON calls (account_sid, end_time, date_created, sid)
        WHERE end_time IS NOT NULL;
      CREATE INDEX calls_live ON calls (owner_node) WHERE live;
      -- The calls version of each account (see CallRepository.version), bumped in the
      -- transaction of every write that touches its calls, so every node sees the change.
      CREATE SEQUENCE call_version_seq;
      CREATE TABLE call_versions (account_sid text COLLATE "C" PRIMARY KEY, version bigint NOT NULL);
      CREATE TABLE recordings (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        call_sid text COLLATE "C" NOT NULL, date_created bigint NOT NULL,
        duration double precision NOT NULL, data text NOT NULL, wav bytea NOT NULL);
      CREATE INDEX recordings_account_created ON recordings (account_sid, date_created, sid);
      CREATE TABLE gathers (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL, call_sid text COLLATE "C" NOT NULL,
        date_created bigint NOT NULL, data text NOT NULL);
      CREATE INDEX gathers_account_kind_created ON gathers (account_sid, kind, date_created, sid);
      CREATE TABLE notifications (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        call_sid text COLLATE "C", log smallint NOT NULL, date_created bigint NOT NULL,
        data text NOT NULL);
      CREATE INDEX notifications_account_created ON notifications (account_sid, date_created, sid);
      CREATE TABLE applications (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL, data text NOT NULL);
    `,
  },
  {
    version: 2,
    name: 'auth tokens kept as keyed hashes, signing keys',
    sql: '',
    run: async (client) => {
      const { rows } = await client.query<{ sid: string; data: string }>(
        'SELECT sid, data FROM accounts FOR UPDATE',
      );
      for (const row of rows) {
        const upgraded = upgradeAccountRecord(JSON.parse(row.data) as Record<string, unknown>);
        await client.query('UPDATE accounts SET data = $1 WHERE sid = $2', [
          JSON.stringify(upgraded),
          row.sid,
        ]);
      }
    },
  },
  {
    version: 3,
    name: 'conference rooms',
    // owner_node: the node that last wrote the room (the one running it).
    sql: `
      CREATE TABLE conferences (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        friendly_name text COLLATE "C" NOT NULL, status text COLLATE "C" NOT NULL,
        owner_node text COLLATE "C", date_created bigint NOT NULL, date_updated bigint NOT NULL,
        data text NOT NULL);
      CREATE INDEX conferences_account_created ON conferences (account_sid, date_created, sid);
      CREATE INDEX conferences_live ON conferences (owner_node) WHERE status <> 'completed';
    `,
  },
  {
    version: 4,
    name: 'node leases',
    // The fencing token of each node of a cluster: bumped when the node starts, renews a lapsed
    // lease or is taken over; a write carrying an older epoch is refused (see leases.ts).
    sql: `
      CREATE TABLE cluster_leases (node text COLLATE "C" PRIMARY KEY, epoch bigint NOT NULL);
      CREATE INDEX calls_live_owner ON calls (owner_node) WHERE live;
    `,
  },
  {
    version: 5,
    name: 'clients',
    // A login is unique within its account: the index refuses a second one in any race.
    sql: `
      CREATE TABLE clients (
        sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
        login text COLLATE "C" NOT NULL, friendly_name text COLLATE "C" NOT NULL,
        date_created bigint NOT NULL, data text NOT NULL);
      CREATE UNIQUE INDEX clients_login ON clients (account_sid, login);
      CREATE INDEX clients_account_created ON clients (account_sid, date_created, sid);
    `,
  },
];

/** The platform's records. */
export const PLATFORM_MIGRATIONS: PgMigrationSet = {
  table: 'rcml_migrations',
  what: 'database',
  steps: PG_MIGRATIONS,
};

/** Arbitrary key of the advisory lock held while migrating. */
const MIGRATION_LOCK = 7_263_417_001;

/** Applies the steps of `set` the database has not seen yet (inside the caller's transaction). */
async function applySet(client: pg.ClientBase, set: PgMigrationSet): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS ${set.table} (
    version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${set.table}`);
  const done = new Set(rows.map((r) => r.version));
  const latest = Math.max(...set.steps.map((m) => m.version));
  const newest = Math.max(0, ...done);
  if (newest > latest) {
    throw new Error(
      `${set.what} schema version ${newest} is newer than this rcml-engine supports (${latest})`,
    );
  }
  const applied: number[] = [];
  for (const m of set.steps) {
    if (done.has(m.version)) continue;
    if (m.sql) await client.query(m.sql);
    await m.run?.(client);
    await client.query(`INSERT INTO ${set.table} (version, name, applied_at) VALUES ($1, $2, $3)`, [
      m.version,
      m.name,
      Date.now(),
    ]);
    applied.push(m.version);
  }
  return applied;
}

/**
 * Creates the schema when given (the client's search path must name it), then applies every
 * step of each set the database has not seen yet, set after set, in one transaction (a
 * database is left either as it was or fully migrated, and a fresh one costs one commit);
 * returns the versions applied per version table.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  schema?: string,
  sets: readonly PgMigrationSet[] = [PLATFORM_MIGRATIONS],
): Promise<Record<string, number[]>> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('BEGIN');
    try {
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      const applied: Record<string, number[]> = {};
      for (const set of sets) applied[set.table] = await applySet(client, set);
      await client.query('COMMIT');
      return applied;
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
