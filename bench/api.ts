/**
 * REST API throughput over SQLite: requests/s of `GET Calls.json` (page of 50, a To filter and
 * a Duration sort) with 100,000 stored calls, beside a trivial hono route served the same way
 * (same client, connections and duration, each warmed up first), over a few rounds whose
 * medians are printed: once as served (repeats of one query hit the rendered-page cache), once
 * with that cache off (every request queries SQLite and renders); and the time to insert
 * 100,000 call records, beside raw inserts of the same rows into a bare table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { Pool } from 'undici';
import { createApp } from '../src/api/app.js';
import type { CallRecord } from '../src/engine/records.js';
import { newAccount } from '../src/store/credentials.js';
import { openSqliteStore } from '../src/store/sqlite/open.js';

const CALLS = 100_000;
const SECONDS = 2;
const WARM_UP_SECONDS = 0.5;
const ROUNDS = 3;
const CONCURRENCY = 16;
export const ACCOUNT = `AC${'a'.repeat(32)}`;
export const TOKEN = 'bench-token';

export function makeCalls(): CallRecord[] {
  const t0 = Date.UTC(2024, 0, 1);
  return Array.from({ length: CALLS }, (_, i) => ({
    sid: `CA${i.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT,
    direction: i % 3 === 0 ? 'inbound' : 'outbound-api',
    from: `+1555${(i % 1000).toString().padStart(7, '0')}`,
    to: `+1666${(i % 100).toString().padStart(7, '0')}`,
    status: i % 10 === 0 ? 'busy' : 'completed',
    instanceId: 'ID1',
    apiVersion: '2012-04-24',
    dateCreated: t0 + i * 1000,
    dateUpdated: t0 + i * 1000,
    startTime: t0 + i * 1000 + 500,
    endTime: t0 + i * 1000 + 500 + (i % 300) * 1000,
    duration: i % 300,
  }));
}

/** Requests/s of GETs to `path` over keep-alive connections for `seconds`. */
export async function throughput(
  origin: string,
  path: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<number> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  let done = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await pool.request({ method: 'GET', path, headers });
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}`);
      await res.body.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  return done / elapsed;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-bench-api-'));
  try {
    const calls = makeCalls();
    const store = await openSqliteStore({ dir });
    await store.accounts.put(
      newAccount(ACCOUNT, { friendlyName: 'bench', now: 0, authToken: TOKEN }).account,
    );
    let t = performance.now();
    await store.calls.putMany(calls);
    const insertMs = performance.now() - t;

    const raw = new Database(join(dir, 'floor.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE t (sid TEXT PRIMARY KEY, data TEXT NOT NULL)');
    const ins = raw.prepare('INSERT INTO t VALUES (?, ?)');
    t = performance.now();
    raw.transaction(() => {
      for (const c of calls) ins.run(c.sid, JSON.stringify(c));
    })();
    const floorMs = performance.now() - t;
    raw.close();
    console.log(
      `insert ${CALLS} calls: ${insertMs.toFixed(0)} ms (${Math.round(CALLS / (insertMs / 1000))}/s); ` +
        `floor (bare key+JSON table): ${floorMs.toFixed(0)} ms; ratio floor/ours ${(floorMs / insertMs).toFixed(2)}`,
    );

    const cached = await listen(createApp({ store }).fetch);
    const uncached = await listen(createApp({ store, listCacheBytes: 0 }).fetch);
    const trivialApp = new Hono().get('/ping', (c) => c.json({ ok: true }));
    const trivial = await listen(trivialApp.fetch);
    const auth = { authorization: `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}` };
    const path = `/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json?To=%2B16660000042&SortBy=Duration:desc&PageSize=50`;
    const routes = [
      { name: 'trivial', origin: trivial.origin, path: '/ping', headers: {} },
      { name: 'cached', origin: cached.origin, path, headers: auth },
      { name: 'uncached', origin: uncached.origin, path, headers: auth },
    ];
    const figures = new Map<string, number[]>(routes.map((r) => [r.name, []]));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const r of routes) {
          await throughput(r.origin, r.path, r.headers, WARM_UP_SECONDS);
          figures.get(r.name)?.push(await throughput(r.origin, r.path, r.headers, SECONDS));
        }
      }
      const [floor, ours, cold] = ['trivial', 'cached', 'uncached'].map((n) => median(figures.get(n) ?? []));
      const pct = (x: number) => `${((x / floor) * 100).toFixed(1)}%`;
      console.log(
        `GET Calls.json (To filter, Duration sort, page of 50, ${CALLS} calls), median of ${ROUNDS} rounds ` +
          `of ${SECONDS} s, ${CONCURRENCY} connections:\n` +
          `  trivial hono route: ${floor.toFixed(0)} req/s\n` +
          `  as served (page cache): ${ours.toFixed(0)} req/s; ratio ${pct(ours)} (goal >= 25%)\n` +
          `  page cache off: ${cold.toFixed(0)} req/s; ratio ${pct(cold)}`,
      );
    } finally {
      for (const s of [cached, uncached, trivial]) await s.close();
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
