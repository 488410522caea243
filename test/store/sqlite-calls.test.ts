import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { callListSql } from '../../src/store/sqlite/calls.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import type { CallQuery, CallSortKey } from '../../src/store/types.js';
import { ACCOUNT_A, ACCOUNT_B, call } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-sqlite-calls-'));
  dirs.push(d);
  return d;
}

const SORTS: CallSortKey[] = ['dateCreated', 'from', 'to', 'direction', 'status', 'duration'];
const FILTERS = {
  to: '+3',
  from: 'client:alice',
  status: 'completed',
  parentCallSid: call(1).sid,
  startedFrom: Date.UTC(2024, 2, 5, 12, 0, 10),
  endedTo: Date.UTC(2024, 2, 5, 12, 0, 40),
} as const;

/** Every subset of the filters the API offers. */
function filterSets(): Array<Partial<CallQuery>> {
  const names = Object.keys(FILTERS) as Array<keyof typeof FILTERS>;
  return Array.from({ length: 1 << names.length }, (_, mask) =>
    Object.fromEntries(names.filter((_, i) => mask & (1 << i)).map((n) => [n, FILTERS[n]])),
  );
}

/** The plan lines of the page query's key scan (the subquery), and of the count. */
function plans(db: Database.Database, q: CallQuery) {
  const sql = callListSql(q);
  const params = Object.keys(FILTERS).filter((k) => q[k as keyof CallQuery] !== undefined);
  const args = ['A', ...params.map(() => 1)];
  const page = db.prepare(`EXPLAIN QUERY PLAN ${sql.page}`).all(...args, 1, 0) as Array<{
    id: number;
    parent: number;
    detail: string;
  }>;
  const keys = page.find((r) => r.detail === 'CO-ROUTINE k');
  const count = db.prepare(`EXPLAIN QUERY PLAN ${sql.count}`).all(...args, 1) as Array<{ detail: string }>;
  return {
    keys: page.filter((r) => r.parent === keys?.id).map((r) => r.detail),
    count: count.map((r) => r.detail),
  };
}

describe('SQLite calls list', () => {
  it('answers every filter set, sort and order like the memory store', async () => {
    const sql = await openSqliteStore({ dir: tempDir() });
    const mem = createMemoryStore();
    const calls = Array.from({ length: 40 }, (_, i) =>
      call(i, {
        to: i % 3 === 0 ? '+3' : '+4',
        from: i % 4 === 0 ? 'client:alice' : '+1',
        status: i % 5 === 0 ? 'busy' : 'completed',
        direction: i % 2 === 0 ? 'inbound' : 'outbound-api',
        parentCallSid: i % 6 === 0 ? call(1).sid : undefined,
        duration: i % 7,
        dateCreated: Date.UTC(2024, 2, 5, 12) + (i % 9) * 1000,
        startTime: i % 8 === 0 ? undefined : Date.UTC(2024, 2, 5, 12, 0, i),
        endTime: i % 8 === 0 ? undefined : Date.UTC(2024, 2, 5, 12, 0, i + (i % 7)),
      }),
    );
    calls.push(call(99, { accountSid: ACCOUNT_B, to: '+3' }));
    await sql.calls.putMany(calls);
    await mem.calls.putMany(calls);
    for (const filters of filterSets()) {
      for (const by of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          for (const [offset, limit] of [
            [0, 50],
            [2, 3],
          ]) {
            const q: CallQuery = { accountSid: ACCOUNT_A, ...filters, sort: { by, order }, offset, limit };
            expect(await sql.calls.list(q), JSON.stringify(q)).toEqual(await mem.calls.list(q));
          }
        }
      }
    }
    await sql.close();
  });

  it('reads the page of common lists off an index alone, with no sort, and counts off one', async () => {
    const dir = tempDir();
    await (await openSqliteStore({ dir })).close();
    const db = new Database(join(dir, 'rcml.sqlite'), { readonly: true });
    const q = (over: Partial<CallQuery>): CallQuery => ({ accountSid: 'A', offset: 0, limit: 50, ...over });
    const common: CallQuery[] = [
      // Every sort of a whole account, both ways (To/From/DateCreated/Duration descending
      // excepted: their ties are small groups that SQLite re-sorts on the fly).
      ...SORTS.flatMap((by) => [
        q({ sort: { by, order: 'asc' } }),
        q({ sort: { by, order: 'desc' } }),
      ]).filter(
        (x) =>
          x.sort?.order === 'asc' || !['to', 'from', 'dateCreated', 'duration'].includes(x.sort?.by ?? ''),
      ),
      // Each equality filter in the default order.
      q({ to: '+1' }),
      q({ from: '+1' }),
      q({ status: 'busy' }),
      q({ parentCallSid: 'CA1' }),
      // A number's calls by duration.
      q({ to: '+1', sort: { by: 'duration', order: 'asc' } }),
      q({ from: '+1', sort: { by: 'duration', order: 'asc' } }),
    ];
    for (const query of common) {
      const { keys, count } = plans(db, query);
      expect(keys, JSON.stringify(query)).toHaveLength(1);
      expect(keys[0], JSON.stringify(query)).toMatch(/^SEARCH calls USING COVERING INDEX /);
      expect(count.join('\n'), JSON.stringify(query)).toMatch(/COVERING INDEX/);
    }
    db.close();
  });

  it('reads every list off an index, never the whole table, re-sorting at most groups of ties', async () => {
    const dir = tempDir();
    await (await openSqliteStore({ dir })).close();
    const db = new Database(join(dir, 'rcml.sqlite'), { readonly: true });
    for (const filters of filterSets()) {
      for (const by of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          const query: CallQuery = { accountSid: 'A', ...filters, sort: { by, order }, offset: 0, limit: 50 };
          const { keys, count } = plans(db, query);
          const label = JSON.stringify(query);
          expect(keys[0], label).toMatch(/^SEARCH calls USING (COVERING )?INDEX calls_\w+ \(account_sid=\?/);
          // A sort of the whole result reads every matching row before the first page: only
          // after a filter that narrows the account (a number, a parent, a time range).
          const narrowed = ['to', 'from', 'parentCallSid', 'startedFrom', 'endedTo'].some(
            (f) => f in filters,
          );
          const sorts = narrowed
            ? /^USE TEMP B-TREE FOR /
            : /^USE TEMP B-TREE FOR (RIGHT PART|LAST( \d+)? TERMS?) OF /;
          for (const line of keys.slice(1)) expect(line, label).toMatch(sorts);
          const counted = count.filter((line) => / calls /.test(`${line} `));
          expect(counted, label).toHaveLength(1);
          expect(counted[0], label).toMatch(
            /^SEARCH calls USING (COVERING )?INDEX calls_\w+ \(account_sid=\?/,
          );
        }
      }
    }
    db.close();
  });

  it('drops the descending duration copies from an existing database, its lists unchanged', async () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'rcml.sqlite'));
    db.exec(
      'CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((s) => s.version < 6)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations VALUES (?, ?, 0)').run(m.version, m.name);
    }
    db.close();
    const before = await openSqliteStore({ dir });
    const calls = Array.from({ length: 12 }, (_, i) => call(i, { to: '+3', duration: i % 4 }));
    await before.calls.putMany(calls);
    await before.close();
    const s = await openSqliteStore({ dir });
    const page = await s.calls.list({
      accountSid: ACCOUNT_A,
      to: '+3',
      sort: { by: 'duration', order: 'desc' },
      offset: 0,
      limit: 5,
    });
    await s.close();
    const expected = [...calls].sort(
      (a, b) =>
        (b.duration ?? 0) - (a.duration ?? 0) || a.dateCreated - b.dateCreated || (a.sid < b.sid ? -1 : 1),
    );
    expect(page.items.map((c) => c.sid)).toEqual(expected.slice(0, 5).map((c) => c.sid));
    const check = new Database(join(dir, 'rcml.sqlite'), { readonly: true });
    const names = check
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'calls'")
      .pluck()
      .all();
    check.close();
    expect(names).not.toContain('calls_duration_desc');
    expect(names).toContain('calls_duration');
  });

  it('upgrades a version 1 database, keeping its calls', async () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'rcml.sqlite'));
    db.exec(
      'CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    db.exec(MIGRATIONS[0].sql);
    db.prepare('INSERT INTO migrations VALUES (1, ?, 0)').run(MIGRATIONS[0].name);
    const c = call(1, { to: '+3' });
    db.prepare(
      `INSERT INTO calls (sid, account_sid, direction, from_addr, to_addr, status, live, date_created,
        start_time, end_time, duration, data) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
    ).run(
      c.sid,
      c.accountSid,
      c.direction,
      c.from,
      c.to,
      c.status,
      c.dateCreated,
      c.startTime,
      c.endTime,
      c.duration,
      JSON.stringify(c),
    );
    db.close();
    const s = await openSqliteStore({ dir });
    const page = await s.calls.list({
      accountSid: ACCOUNT_A,
      to: '+3',
      sort: { by: 'duration', order: 'desc' },
      offset: 0,
      limit: 5,
    });
    expect(page).toEqual({ items: [c], total: 1, offset: 0 });
    await s.close();
  });

  it('changes an account version when another connection commits', async () => {
    const dir = tempDir();
    const reader = await openSqliteStore({ dir });
    const writer = await openSqliteStore({ dir });
    const before = await reader.calls.version?.(ACCOUNT_A);
    expect(await reader.calls.version?.(ACCOUNT_A)).toBe(before);
    await writer.calls.put(call(1));
    const after = await reader.calls.version?.(ACCOUNT_A);
    expect(after).not.toBe(before);
    expect(await reader.calls.version?.(ACCOUNT_A)).toBe(after);
    await writer.close();
    await reader.close();
  });
  it("writes a live call's changes into its columns, and puts back a row deleted behind it", async () => {
    const dir = tempDir();
    const s = await openSqliteStore({ dir });
    const live = call(1, {
      status: 'ringing',
      startTime: undefined,
      endTime: undefined,
      duration: undefined,
    });
    await s.calls.put(live);
    await s.calls.put({ ...live, status: 'in-progress', startTime: live.dateCreated + 1000 });
    const ended = { ...live, status: 'completed' as const, startTime: live.dateCreated + 1000 };
    await s.calls.put({ ...ended, endTime: live.dateCreated + 5000, duration: 4 });
    const raw = new Database(join(dir, 'rcml.sqlite'), { readonly: true });
    const columns = raw.prepare('SELECT status, live, start_time, end_time, duration, data FROM calls').all();
    expect(columns).toEqual([
      {
        status: 'completed',
        live: 0,
        start_time: ended.startTime,
        end_time: live.dateCreated + 5000,
        duration: 4,
        data: JSON.stringify({ ...ended, endTime: live.dateCreated + 5000, duration: 4 }),
      },
    ]);
    for (const sort of SORTS) {
      const page = await s.calls.list({
        accountSid: ACCOUNT_A,
        status: 'completed',
        sort: { by: sort, order: 'asc' },
        limit: 5,
        offset: 0,
      });
      expect(page.total).toBe(1);
    }
    // Another connection deletes the row of a live call: its next change writes it whole again.
    const other = call(2, {
      status: 'ringing',
      startTime: undefined,
      endTime: undefined,
      duration: undefined,
    });
    await s.calls.put(other);
    const writer = new Database(join(dir, 'rcml.sqlite'));
    writer.prepare('DELETE FROM calls WHERE sid = ?').run(other.sid);
    writer.close();
    await s.calls.put({ ...other, status: 'in-progress', startTime: other.dateCreated });
    expect(await s.calls.get(ACCOUNT_A, other.sid)).toMatchObject({ status: 'in-progress' });
    expect(raw.prepare('SELECT status FROM calls WHERE sid = ?').pluck().get(other.sid)).toBe('in-progress');
    raw.close();
    await s.close();
  });
});
