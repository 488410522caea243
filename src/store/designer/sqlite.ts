/**
 * SQLite designer store: `designer.sqlite` in the data directory (WAL), its own migrations.
 * Applications keep their whole record as JSON beside the columns they are looked up by.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/driver.js';
import type { MigrationStep } from '../sqlite/migration-step.js';
import { applyMigrations } from '../sqlite/versioned-migrations.js';
import type { DesignerStore } from './ports.js';
import type { DesignerAppRecord, DesignerParameter } from './types.js';

/** Schema steps in order; never edit a released one, add one. */
export const DESIGNER_MIGRATIONS: ReadonlyArray<MigrationStep> = [
  {
    version: 1,
    name: 'designer applications, parameters, media and logs',
    sql: `
      CREATE TABLE designer_apps (
        sid TEXT PRIMARY KEY, account_sid TEXT NOT NULL, name TEXT NOT NULL,
        date_created INTEGER NOT NULL, data TEXT NOT NULL, UNIQUE (account_sid, name));
      CREATE TABLE designer_parameters (
        id INTEGER PRIMARY KEY AUTOINCREMENT, app_sid TEXT NOT NULL, name TEXT NOT NULL,
        data TEXT NOT NULL, UNIQUE (app_sid, name));
      CREATE TABLE designer_media (
        app_sid TEXT NOT NULL, filename TEXT NOT NULL, bytes BLOB NOT NULL,
        PRIMARY KEY (app_sid, filename));
      CREATE TABLE designer_logs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, app_sid TEXT NOT NULL, line TEXT NOT NULL,
        bytes INTEGER NOT NULL);
      CREATE INDEX designer_logs_app ON designer_logs (app_sid, id);
    `,
  },
];

function migrate(db: Database.Database): void {
  applyMigrations(db, 'designer_migrations', 'designer', DESIGNER_MIGRATIONS);
}

const isUniqueViolation = (err: unknown) =>
  err instanceof Error && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/** Opens (or creates) the designer store of a data directory. */
export function openSqliteDesignerStore(options: { dir: string }): DesignerStore {
  mkdirSync(options.dir, { recursive: true });
  const db = openDatabase(join(options.dir, 'designer.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (err) {
    db.close();
    throw new Error(
      `cannot open the designer store in ${options.dir}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const q = {
    insertApp: db.prepare(
      'INSERT INTO designer_apps (sid, account_sid, name, date_created, data) VALUES (?, ?, ?, ?, ?)',
    ),
    getApp: db.prepare('SELECT data FROM designer_apps WHERE sid = ? AND account_sid = ?'),
    listApps: db.prepare('SELECT data FROM designer_apps WHERE account_sid = ? ORDER BY date_created, sid'),
    updateApp: db.prepare('UPDATE designer_apps SET name = ?, data = ? WHERE sid = ? AND account_sid = ?'),
    deleteApp: db.prepare('DELETE FROM designer_apps WHERE sid = ? AND account_sid = ?'),
    listParams: db.prepare('SELECT data FROM designer_parameters WHERE app_sid = ? ORDER BY id'),
    insertParam: db.prepare('INSERT INTO designer_parameters (app_sid, name, data) VALUES (?, ?, ?)'),
    updateParam: db.prepare('UPDATE designer_parameters SET data = ? WHERE app_sid = ? AND name = ?'),
    deleteParam: db.prepare('DELETE FROM designer_parameters WHERE app_sid = ? AND name = ?'),
    deleteParams: db.prepare('DELETE FROM designer_parameters WHERE app_sid = ?'),
    putMedia: db.prepare('INSERT OR REPLACE INTO designer_media (app_sid, filename, bytes) VALUES (?, ?, ?)'),
    getMedia: db.prepare('SELECT bytes FROM designer_media WHERE app_sid = ? AND filename = ?'),
    listMedia: db.prepare('SELECT filename FROM designer_media WHERE app_sid = ? ORDER BY filename'),
    deleteMedia: db.prepare('DELETE FROM designer_media WHERE app_sid = ? AND filename = ?'),
    deleteAllMedia: db.prepare('DELETE FROM designer_media WHERE app_sid = ?'),
    appendLog: db.prepare('INSERT INTO designer_logs (app_sid, line, bytes) VALUES (?, ?, ?)'),
    logBytes: db.prepare('SELECT COALESCE(SUM(bytes), 0) AS total FROM designer_logs WHERE app_sid = ?'),
    // The oldest lines go until the newest ones fit (the last line always stays).
    trimLog: db.prepare(`DELETE FROM designer_logs WHERE app_sid = ? AND id < (
      SELECT COALESCE(MIN(id), (SELECT MAX(id) FROM designer_logs WHERE app_sid = ?)) FROM (
        SELECT id, SUM(bytes) OVER (ORDER BY id DESC) AS running
        FROM designer_logs WHERE app_sid = ?) WHERE running <= ?)`),
    readLog: db.prepare('SELECT line FROM designer_logs WHERE app_sid = ? ORDER BY id'),
    clearLog: db.prepare('DELETE FROM designer_logs WHERE app_sid = ?'),
  };
  const rows = <T>(stmt: Database.Statement, ...args: unknown[]) =>
    (stmt.all(...args) as Array<{ data: string }>).map((r) => JSON.parse(r.data) as T);
  const deleteApp = db.transaction((accountSid: string, sid: string) => {
    if (q.deleteApp.run(sid, accountSid).changes === 0) return false;
    q.deleteParams.run(sid);
    q.deleteAllMedia.run(sid);
    q.clearLog.run(sid);
    return true;
  });
  const appendLog = db.transaction((appSid: string, lines: readonly string[], maxBytes: number) => {
    for (const line of lines) q.appendLog.run(appSid, line, Buffer.byteLength(line, 'utf8') + 1);
    const { total } = q.logBytes.get(appSid) as { total: number };
    if (total > maxBytes) q.trimLog.run(appSid, appSid, appSid, maxBytes);
  });

  return {
    apps: {
      async create(app) {
        try {
          q.insertApp.run(app.sid, app.accountSid, app.name, app.dateCreated, JSON.stringify(app));
          return 'created';
        } catch (err) {
          if (isUniqueViolation(err)) return 'duplicate-name';
          throw err;
        }
      },
      async get(accountSid, sid) {
        return rows<DesignerAppRecord>(q.getApp, sid, accountSid)[0];
      },
      async list(accountSid) {
        return rows<DesignerAppRecord>(q.listApps, accountSid);
      },
      async update(app) {
        try {
          const changed = q.updateApp.run(app.name, JSON.stringify(app), app.sid, app.accountSid).changes;
          return changed === 0 ? 'missing' : 'updated';
        } catch (err) {
          if (isUniqueViolation(err)) return 'duplicate-name';
          throw err;
        }
      },
      async delete(accountSid, sid) {
        return deleteApp(accountSid, sid);
      },
    },
    parameters: {
      async list(appSid) {
        return rows<DesignerParameter>(q.listParams, appSid);
      },
      async add(appSid, parameter) {
        try {
          q.insertParam.run(appSid, parameter.name, JSON.stringify(parameter));
          return true;
        } catch (err) {
          if (isUniqueViolation(err)) return false;
          throw err;
        }
      },
      async update(appSid, parameter) {
        return q.updateParam.run(JSON.stringify(parameter), appSid, parameter.name).changes > 0;
      },
      async delete(appSid, name) {
        return q.deleteParam.run(appSid, name).changes > 0;
      },
    },
    media: {
      async put(appSid, file) {
        q.putMedia.run(appSid, file.filename, Buffer.from(file.bytes));
      },
      async get(appSid, filename) {
        const row = q.getMedia.get(appSid, filename) as { bytes: Buffer } | undefined;
        return row && { filename, bytes: new Uint8Array(row.bytes) };
      },
      async list(appSid) {
        return (q.listMedia.all(appSid) as Array<{ filename: string }>).map((r) => r.filename);
      },
      async delete(appSid, filename) {
        return q.deleteMedia.run(appSid, filename).changes > 0;
      },
    },
    logs: {
      async append(appSid, lines, maxBytes) {
        appendLog(appSid, lines, maxBytes);
      },
      async read(appSid) {
        return (q.readLog.all(appSid) as Array<{ line: string }>).map((r) => r.line);
      },
      async clear(appSid) {
        q.clearLog.run(appSid);
      },
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
