/**
 * The designer store in the PostgreSQL database of a platform store (its tables are migrated
 * when that store opens): applications, parameters, media bytes (`bytea`) and logs are seen
 * by every node. Writes go through the platform store's group-commit writer; a write spanning
 * rows (deleting an application, appending to a log) is one transaction.
 */
import type pg from 'pg';
import {
  byteaOf,
  bytesOf,
  CLIENT_WRITE,
  isUniqueViolation,
  one,
  type PostgresConnection,
  parsed,
} from '../postgres/connection.js';
import type { DesignerStore } from './ports.js';
import type { DesignerAppRecord, DesignerParameter } from './types.js';

const changed = (res: pg.QueryResult) => (res.rowCount ?? 0) > 0;

/** Appends lines, then drops the oldest until the newest fit in `maxBytes` (the last one stays). */
async function appendLog(
  client: pg.PoolClient,
  appSid: string,
  lines: readonly string[],
  maxBytes: number,
): Promise<void> {
  await client.query({
    name: 'rcml_designer_logs_append',
    text: `INSERT INTO designer_logs (app_sid, line, bytes)
      SELECT $1, l, b FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS t(l, b, n) ORDER BY n`,
    values: [appSid, lines, lines.map((l) => Buffer.byteLength(l, 'utf8') + 1)],
  });
  await client.query({
    name: 'rcml_designer_logs_trim',
    text: `DELETE FROM designer_logs WHERE app_sid = $1 AND id < (
      SELECT COALESCE(MIN(id), (SELECT MAX(id) FROM designer_logs WHERE app_sid = $1)) FROM (
        SELECT id, SUM(bytes) OVER (ORDER BY id DESC) AS running
        FROM designer_logs WHERE app_sid = $1) AS r WHERE running <= $2)`,
    values: [appSid, maxBytes],
  });
}

/** Removes the account's application and what belongs to it; false when it had none. */
async function deleteApp(client: pg.PoolClient, accountSid: string, sid: string): Promise<boolean> {
  const res = await client.query({
    name: 'rcml_designer_apps_delete',
    text: 'DELETE FROM designer_apps WHERE sid = $1 AND account_sid = $2',
    values: [sid, accountSid],
  });
  if (!changed(res)) return false;
  for (const table of ['designer_parameters', 'designer_media', 'designer_logs']) {
    await client.query(`DELETE FROM ${table} WHERE app_sid = $1`, [sid]);
  }
  return true;
}

export function postgresDesignerStore(connection: PostgresConnection): DesignerStore {
  const { db, writer } = connection;
  const write = (name: string, text: string, values: unknown[]) =>
    writer.write(one(name, text, values), CLIENT_WRITE);
  return {
    apps: {
      async create(app) {
        const res = await write(
          'rcml_designer_apps_create',
          `INSERT INTO designer_apps (sid, account_sid, name, date_created, data) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (account_sid, name) DO NOTHING`,
          [app.sid, app.accountSid, app.name, app.dateCreated, JSON.stringify(app)],
        );
        return changed(res) ? 'created' : 'duplicate-name';
      },
      async get(accountSid, sid) {
        return parsed<DesignerAppRecord>(
          await db.query('SELECT data FROM designer_apps WHERE sid = $1 AND account_sid = $2', [
            sid,
            accountSid,
          ]),
        )[0];
      },
      async list(accountSid) {
        return parsed(
          await db.query('SELECT data FROM designer_apps WHERE account_sid = $1 ORDER BY date_created, sid', [
            accountSid,
          ]),
        );
      },
      async update(app) {
        try {
          const res = await write(
            'rcml_designer_apps_update',
            'UPDATE designer_apps SET name = $1, data = $2 WHERE sid = $3 AND account_sid = $4',
            [app.name, JSON.stringify(app), app.sid, app.accountSid],
          );
          return changed(res) ? 'updated' : 'missing';
        } catch (err) {
          if (isUniqueViolation(err)) return 'duplicate-name';
          throw err;
        }
      },
      delete: (accountSid, sid) =>
        writer.write<boolean>({ run: (client) => deleteApp(client, accountSid, sid) }, CLIENT_WRITE),
    },
    parameters: {
      async list(appSid) {
        return parsed<DesignerParameter>(
          await db.query('SELECT data FROM designer_parameters WHERE app_sid = $1 ORDER BY id', [appSid]),
        );
      },
      async add(appSid, parameter) {
        const res = await write(
          'rcml_designer_parameters_add',
          `INSERT INTO designer_parameters (app_sid, name, data) VALUES ($1, $2, $3)
            ON CONFLICT (app_sid, name) DO NOTHING`,
          [appSid, parameter.name, JSON.stringify(parameter)],
        );
        return changed(res);
      },
      async update(appSid, parameter) {
        const res = await write(
          'rcml_designer_parameters_update',
          'UPDATE designer_parameters SET data = $1 WHERE app_sid = $2 AND name = $3',
          [JSON.stringify(parameter), appSid, parameter.name],
        );
        return changed(res);
      },
      async delete(appSid, name) {
        const res = await write(
          'rcml_designer_parameters_delete',
          'DELETE FROM designer_parameters WHERE app_sid = $1 AND name = $2',
          [appSid, name],
        );
        return changed(res);
      },
    },
    media: {
      async put(appSid, file) {
        await write(
          'rcml_designer_media_put',
          `INSERT INTO designer_media (app_sid, filename, bytes) VALUES ($1, $2, $3)
            ON CONFLICT (app_sid, filename) DO UPDATE SET bytes = excluded.bytes`,
          [appSid, file.filename, byteaOf(file.bytes)],
        );
      },
      async get(appSid, filename) {
        const [row] = await db.query<{ bytes: Buffer }>(
          'SELECT bytes FROM designer_media WHERE app_sid = $1 AND filename = $2',
          [appSid, filename],
        );
        return row && { filename, bytes: bytesOf(row.bytes) };
      },
      async list(appSid) {
        const rows = await db.query<{ filename: string }>(
          'SELECT filename FROM designer_media WHERE app_sid = $1 ORDER BY filename',
          [appSid],
        );
        return rows.map((r) => r.filename);
      },
      async delete(appSid, filename) {
        const res = await write(
          'rcml_designer_media_delete',
          'DELETE FROM designer_media WHERE app_sid = $1 AND filename = $2',
          [appSid, filename],
        );
        return changed(res);
      },
    },
    logs: {
      async append(appSid, lines, maxBytes) {
        // A controller request waits for it: refused at once rather than held during an outage.
        await writer.write({ run: (client) => appendLog(client, appSid, lines, maxBytes) }, CLIENT_WRITE);
      },
      async read(appSid) {
        const rows = await db.query<{ line: string }>(
          'SELECT line FROM designer_logs WHERE app_sid = $1 ORDER BY id',
          [appSid],
        );
        return rows.map((r) => r.line);
      },
      async clear(appSid) {
        await write('rcml_designer_logs_clear', 'DELETE FROM designer_logs WHERE app_sid = $1', [appSid]);
      },
    },
    close: () => writer.settled(),
  };
}
