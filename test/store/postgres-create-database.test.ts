/** `rcml serve --database` on a server without that database: the first node creates it. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabaseIfAbsent } from '../../src/store/postgres/create-database.js';
import { exitOf, startServeProcess } from '../support/serve-process.js';
import { PG_URL } from '../support/services.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A database name no one has, dropped after the test. */
function freshUrl(): { url: string; name: string } {
  const name = `rcml_test_${process.pid}_${randomBytes(4).toString('hex')}_new`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
  });
  return { url: url.toString(), name };
}

describe.skipIf(!PG_URL)('a database that does not exist yet', () => {
  it('is created once, even by two nodes at the same time, and then left as it is', async () => {
    const { url, name } = freshUrl();
    const both = await Promise.all([createDatabaseIfAbsent(url), createDatabaseIfAbsent(url)]);
    expect(both.filter((n) => n === name)).toHaveLength(1);
    expect(both.filter((n) => n === undefined)).toHaveLength(1);
    expect(await createDatabaseIfAbsent(url)).toBeUndefined();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query('SELECT current_database() AS db')).rows[0]?.db).toBe(name);
    await client.end();
  });

  it('rcml serve creates it, says so, and serves', async () => {
    const { url, name } = freshUrl();
    const node = await startServeProcess(
      [
        '--database',
        url,
        '--clock',
        'virtual',
        '--account-sid',
        `AC${'f'.repeat(32)}`,
        '--auth-token',
        'created-db-token',
      ],
      {},
    );
    cleanups.push(async () => {
      node.child.kill('SIGKILL');
      await exitOf(node.child);
    });
    expect(node.out()).toContain(`PostgreSQL (database ${name} created)`);
    const ready = await fetch(`${node.url}/ready`);
    expect(ready.status).toBe(200);
  });
});
