import type { PgMigrationSet } from '../postgres/migrations.js';

/**
 * The designer tables in PostgreSQL, versioned in `designer_migrations` like their SQLite twins.
 * Never edit a released step: add one. Media files are `bytea` in their rows, so every node
 * serves every file.
 */
export const DESIGNER_PG_MIGRATIONS: PgMigrationSet = {
  table: 'designer_migrations',
  what: 'designer',
  steps: [
    {
      version: 1,
      name: 'designer applications, parameters, media and logs',
      sql: `
        CREATE TABLE designer_apps (
          sid text COLLATE "C" PRIMARY KEY, account_sid text COLLATE "C" NOT NULL,
          name text COLLATE "C" NOT NULL, date_created bigint NOT NULL, data text NOT NULL,
          UNIQUE (account_sid, name));
        CREATE INDEX designer_apps_account ON designer_apps (account_sid, date_created, sid);
        CREATE TABLE designer_parameters (
          id bigserial PRIMARY KEY, app_sid text COLLATE "C" NOT NULL, name text COLLATE "C" NOT NULL,
          data text NOT NULL, UNIQUE (app_sid, name));
        CREATE TABLE designer_media (
          app_sid text COLLATE "C" NOT NULL, filename text COLLATE "C" NOT NULL, bytes bytea NOT NULL,
          PRIMARY KEY (app_sid, filename));
        CREATE TABLE designer_logs (
          id bigserial PRIMARY KEY, app_sid text COLLATE "C" NOT NULL, line text NOT NULL,
          bytes integer NOT NULL);
        CREATE INDEX designer_logs_app ON designer_logs (app_sid, id);
      `,
    },
  ],
};
