/**
 * Creates the database a connection string names when the server has none of that name, so that
 * `rcml serve --database postgres://.../rcml` works on a server that has only its defaults.
 */
import pg from 'pg';

/** PostgreSQL's code for a database that does not exist. */
const NO_SUCH_DATABASE = '3D000';
/**
 * Codes of a database created meanwhile by another node: `duplicate_database`, or, when both
 * creations ran at once, the unique index of the catalogue (`unique_violation`).
 */
const CREATED_MEANWHILE = new Set(['42P04', '23505']);

/**
 * Connects to `url`; when its database does not exist, creates it through the server's
 * `postgres` database with the same credentials. Resolves with the name created, or undefined
 * when it existed. Two nodes starting together may both try: the second finds it made.
 */
export async function createDatabaseIfAbsent(url: string): Promise<string | undefined> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return undefined;
  } catch (err) {
    if ((err as { code?: string }).code !== NO_SUCH_DATABASE) return undefined; // reported by the open
  } finally {
    await probe.end().catch(() => undefined);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return name;
  } catch (err) {
    if (CREATED_MEANWHILE.has((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
