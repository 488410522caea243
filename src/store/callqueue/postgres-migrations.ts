import type { PgMigrationSet } from '../postgres/migrations.js';

/**
 * The Call Queuing tables in PostgreSQL, versioned in `callqueue_migrations` like their SQLite
 * twins. Never edit a released step: add one. `seq` keeps creation order across replacements.
 */
export const CALLQUEUE_PG_MIGRATIONS: PgMigrationSet = {
  table: 'callqueue_migrations',
  what: 'call queuing',
  steps: [
    {
      version: 1,
      name: 'call queuing numbers and events',
      sql: `
        CREATE SEQUENCE callqueue_number_seq;
        CREATE TABLE callqueue_numbers (
          sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
          phone_number text COLLATE "C" NOT NULL UNIQUE,
          seq bigint NOT NULL DEFAULT nextval('callqueue_number_seq'), data text NOT NULL);
        CREATE INDEX callqueue_numbers_account ON callqueue_numbers (account_sid, seq);
        CREATE INDEX callqueue_numbers_seq ON callqueue_numbers (seq);
        CREATE TABLE callqueue_events (
          id bigserial PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
          number_sid text COLLATE "C" NOT NULL, call_sid text COLLATE "C" NOT NULL, data text NOT NULL);
        CREATE INDEX callqueue_events_number ON callqueue_events (account_sid, number_sid, id);
        CREATE INDEX callqueue_events_call ON callqueue_events (account_sid, number_sid, call_sid, id);
      `,
    },
  ],
};
