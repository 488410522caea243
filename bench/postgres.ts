/**
 * The PostgreSQL store beside SQLite, in the same run: time to insert 100,000 calls (batched
 * upserts), and requests/s of `GET Calls.json` (page of 50, To filter, Duration sort; page cache
 * off, so every request queries the store) over each. The ratio PostgreSQL/SQLite is the figure
 * (goal >= 50%). Skips with one line when no PostgreSQL server answers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createApp } from '../src/api/app.js';
import { newAccount } from '../src/store/credentials.js';
import type { Store } from '../src/store/ports.js';
import { openPostgresStore } from '../src/store/postgres/open.js';
import { openSqliteStore } from '../src/store/sqlite/open.js';
import { ACCOUNT, listen, makeCalls, median, TOKEN, throughput } from './api.js';

const BASE =
  process.env.RCML_BENCH_DATABASE_URL ??
  process.env.RCML_TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = 2;
const ROUNDS = 3;

async function admin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: BASE, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

async function seed(store: Store, calls: ReturnType<typeof makeCalls>): Promise<number> {
  await store.accounts.put(newAccount(ACCOUNT, { friendlyName: 'bench', now: 0, authToken: TOKEN }).account);
  const t = performance.now();
  await store.calls.putMany(calls);
  return performance.now() - t;
}

export async function run(): Promise<void> {
  const name = `rcml_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
  } catch (err) {
    console.log(`skipped: no PostgreSQL server at ${BASE} (${err instanceof Error ? err.message : err})`);
    return;
  }
  const url = new URL(BASE);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'rcml-bench-pg-'));
  try {
    const calls = makeCalls();
    const sqlite = await openSqliteStore({ dir });
    const postgres = await openPostgresStore({ url: url.toString() });
    const sqliteMs = await seed(sqlite, calls);
    const pgMs = await seed(postgres, calls);
    await postgres.pool.query('ANALYZE');
    const rate = (ms: number) => Math.round(calls.length / (ms / 1000));
    console.log(
      `insert ${calls.length} calls: PostgreSQL ${pgMs.toFixed(0)} ms (${rate(pgMs)}/s, batched upserts); ` +
        `SQLite ${sqliteMs.toFixed(0)} ms (${rate(sqliteMs)}/s); ratio SQLite/PostgreSQL time ${(sqliteMs / pgMs).toFixed(2)}`,
    );
    const servers = {
      sqlite: await listen(createApp({ store: sqlite, listCacheBytes: 0 }).fetch),
      postgres: await listen(createApp({ store: postgres, listCacheBytes: 0 }).fetch),
    };
    const auth = { authorization: `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}` };
    const path = `/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json?To=%2B16660000042&SortBy=Duration:desc&PageSize=50`;
    const figures = { sqlite: [] as number[], postgres: [] as number[] };
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const kind of ['sqlite', 'postgres'] as const) {
          await throughput(servers[kind].origin, path, auth, 0.5);
          figures[kind].push(await throughput(servers[kind].origin, path, auth, SECONDS));
        }
      }
      const [lite, post] = [median(figures.sqlite), median(figures.postgres)];
      console.log(
        `GET Calls.json (To filter, Duration sort, page of 50, ${calls.length} calls, page cache off), ` +
          `median of ${ROUNDS} rounds of ${SECONDS} s:\n` +
          `  SQLite: ${lite.toFixed(0)} req/s\n` +
          `  PostgreSQL: ${post.toFixed(0)} req/s; ratio ${((post / lite) * 100).toFixed(1)}% (goal >= 50%)`,
      );
    } finally {
      await servers.sqlite.close();
      await servers.postgres.close();
      await sqlite.close();
      await postgres.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
