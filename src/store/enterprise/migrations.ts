import type Database from 'better-sqlite3';
import type { MigrationStep } from '../sqlite/migration-step.js';
import { applyMigrations } from '../sqlite/versioned-migrations.js';

/**
 * Schema of the enterprise records, versioned apart from the platform's tables (its own
 * `enterprise_migrations` table), so both evolve without renumbering each other. Never edit a
 * released step: add one. One table holds every kind: the columns searches filter and sort on,
 * a uniqueness key (e-mail per account, names per enterprise or workspace) and the record as JSON.
 */
export const ENTERPRISE_MIGRATIONS: ReadonlyArray<MigrationStep> = [
  {
    version: 1,
    name: 'enterprise records',
    sql: `
      CREATE TABLE enterprise_records (
        sid TEXT PRIMARY KEY, kind TEXT NOT NULL, account_sid TEXT NOT NULL,
        enterprise_sid TEXT, workspace_sid TEXT, name_key TEXT NOT NULL, email_key TEXT NOT NULL,
        role TEXT NOT NULL, status TEXT NOT NULL, date_created INTEGER NOT NULL,
        unique_key TEXT, data TEXT NOT NULL);
      CREATE UNIQUE INDEX enterprise_records_unique ON enterprise_records (kind, account_sid, unique_key)
        WHERE unique_key IS NOT NULL;
      CREATE INDEX enterprise_records_created ON enterprise_records (kind, account_sid, date_created, sid);
      CREATE INDEX enterprise_records_workspace ON enterprise_records (workspace_sid, kind)
        WHERE workspace_sid IS NOT NULL;
      CREATE TABLE enterprise_files (
        sid TEXT PRIMARY KEY REFERENCES enterprise_records (sid) ON DELETE CASCADE, data BLOB NOT NULL);
    `,
  },
];

/** Applies the enterprise migrations the database has not seen; returns the versions applied. */
export function migrateEnterprise(db: Database.Database): number[] {
  return applyMigrations(db, 'enterprise_migrations', 'enterprise', ENTERPRISE_MIGRATIONS);
}
