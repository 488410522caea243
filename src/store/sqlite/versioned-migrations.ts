import type Database from 'better-sqlite3';

import type { MigrationStep } from './migration-step.js';

export type { MigrationStep } from './migration-step.js';

/**
 * Applies the steps a database has not seen, recorded in `table` (one table per store, so the
 * stores of one data directory evolve without renumbering each other); returns the versions
 * applied. One immediate transaction: processes opening the same file at once apply each step
 * once, and a schema newer than `steps` is refused before anything changes.
 */
export function applyMigrations(
  db: Database.Database,
  table: string,
  what: string,
  steps: ReadonlyArray<MigrationStep>,
): number[] {
  return db
    .transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
      const rows = db.prepare(`SELECT version FROM ${table}`).all() as Array<{ version: number }>;
      const done = new Set(rows.map((r) => r.version));
      const latest = Math.max(...steps.map((m) => m.version));
      const newest = Math.max(0, ...done);
      if (newest > latest) {
        throw new Error(
          `${what} schema version ${newest} is newer than this rcml-engine supports (${latest})`,
        );
      }
      const record = db.prepare(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`);
      const applied: number[] = [];
      for (const m of steps) {
        if (done.has(m.version)) continue;
        db.exec(m.sql);
        record.run(m.version, m.name, Date.now());
        applied.push(m.version);
      }
      return applied;
    })
    .immediate();
}
