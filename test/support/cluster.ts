/** What the tests of several `rcml serve` nodes on PostgreSQL and Redis share. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL } from './services.js';

/**
 * A database of its own for the nodes of one test (they use its default schema); `cleanups`
 * gets the function that drops it.
 */
export async function clusterDatabase(cleanups: Array<() => Promise<void>>): Promise<string> {
  const name = `rcml_test_${process.pid}_${randomBytes(4).toString('hex')}_c`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Checks `probe` every 25 ms until it returns something other than undefined; fails after `ms`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
