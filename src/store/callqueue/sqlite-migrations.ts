import type Database from 'better-sqlite3';

/**
 * Schema steps of the Call Queuing tables, tracked apart from the platform records' steps (in
 * `callqueue_migrations`) so either schema can grow without renumbering the other. Never edit
 * a released step: add one.
 */
export const CALLQUEUE_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
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
  db.exec(`CREATE TABLE IF NOT EXISTS callqueue_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const done = new Set(
    (db.prepare('SELECT version FROM callqueue_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    ),
  );
  const latest = Math.max(...CALLQUEUE_MIGRATIONS.map((m) => m.version));
  const newest = Math.max(0, ...done);
  if (newest > latest) {
    throw new Error(
      `call queuing schema version ${newest} is newer than this rcml-engine supports (${latest})`,
    );
  }
  const record = db.prepare('INSERT INTO callqueue_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const m of CALLQUEUE_MIGRATIONS) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
    applied.push(m.version);
  }
  return applied;
}
