import type { PgMigrationSet } from '../postgres/migrations.js';

/**
 * The enterprise records in PostgreSQL, versioned in `enterprise_migrations` like their SQLite
 * twins (see `migrations.ts` for the layout). Never edit a released step: add one.
 */
export const ENTERPRISE_PG_MIGRATIONS: PgMigrationSet = {
  table: 'enterprise_migrations',
  what: 'enterprise',
  steps: [
    {
      version: 1,
      name: 'enterprise records',
      sql: `
        CREATE TABLE enterprise_records (
          sid text COLLATE "C" PRIMARY KEY, kind text COLLATE "C" NOT NULL,
          account_sid text COLLATE "C" NOT NULL, enterprise_sid text COLLATE "C",
          workspace_sid text COLLATE "C", name_key text COLLATE "C" NOT NULL,
          email_key text COLLATE "C" NOT NULL, role text COLLATE "C" NOT NULL,
          status text COLLATE "C" NOT NULL, date_created bigint NOT NULL,
          unique_key text COLLATE "C", data text NOT NULL);
        CREATE UNIQUE INDEX enterprise_records_unique ON enterprise_records (kind, account_sid, unique_key)
          WHERE unique_key IS NOT NULL;
        CREATE INDEX enterprise_records_created
          ON enterprise_records (kind, account_sid, date_created, sid);
        CREATE INDEX enterprise_records_workspace ON enterprise_records (workspace_sid, kind)
          WHERE workspace_sid IS NOT NULL;
        CREATE TABLE enterprise_files (
          sid text COLLATE "C" PRIMARY KEY REFERENCES enterprise_records (sid) ON DELETE CASCADE,
          data bytea NOT NULL);
      `,
    },
  ],
};
