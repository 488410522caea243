/**
 * One released schema step of a SQLite store. Never edit a released step: add one. Kept apart
 * from the code that applies steps so that the stores' public declarations do not reach the
 * types of `better-sqlite3`, an optional peer dependency.
 */
export interface MigrationStep {
  version: number;
  name: string;
  sql: string;
}
