import type Database from 'better-sqlite3';
import type { MigrationStep } from '../sqlite/migration-step.js';
import { applyMigrations } from '../sqlite/versioned-migrations.js';

/**
 * Schema steps of the Call Queuing tables, tracked apart from the platform records' steps (in
 * `callqueue_migrations`) so either schema can grow without renumbering the other. Never edit
 * a released step: add one.
 */
export const CALLQUEUE_MIGRATIONS: ReadonlyArray<MigrationStep> = [
  {
    version: 1,
    name: 'call queuing numbers and events',
    sql: `
      CREATE TABLE callqueue_numbers (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, phone_number TEXT NOT NULL UNIQUE,
        seq INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE INDEX callqueue_numbers_account ON callqueue_numbers (account_sid, seq);
      CREATE TABLE callqueue_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT, account_sid TEXT NOT NULL, number_sid TEXT NOT NULL,
        call_sid TEXT NOT NULL, data TEXT NOT NULL);
      CREATE INDEX callqueue_events_number ON callqueue_events (account_sid, number_sid, id);
      CREATE INDEX callqueue_events_call ON callqueue_events (account_sid, number_sid, call_sid, id);
    `,
  },
];

/** Applies the Call Queuing steps the database has not seen yet; returns the versions applied. */
export function migrateCallQueue(db: Database.Database): number[] {
  return applyMigrations(db, 'callqueue_migrations', 'call queuing', CALLQUEUE_MIGRATIONS);
}
