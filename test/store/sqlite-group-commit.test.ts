import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { ensureAccount } from '../../src/api/server.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_A, call } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-group-'));
  dirs.push(d);
  return d;
}

/** Counts the rows each statement writes to `calls`, through triggers the store's connection runs. */
function countCallWrites(file: string): () => number {
  const db = new Database(file);
  db.exec(`CREATE TABLE IF NOT EXISTS call_writes (n INTEGER);
    INSERT INTO call_writes VALUES (0);
    CREATE TRIGGER IF NOT EXISTS count_insert AFTER INSERT ON calls BEGIN UPDATE call_writes SET n = n + 1; END;
    CREATE TRIGGER IF NOT EXISTS count_update AFTER UPDATE ON calls BEGIN UPDATE call_writes SET n = n + 1; END;`);
  const read = db.prepare('SELECT n FROM call_writes').pluck();
  return () => read.get() as number;
}

describe('SQLite group commit', () => {
  it('commits the writes of a burst in one transaction, and a read in the same turn sees them', async () => {
    const store = await openSqliteStore({ dir: tempDir() });
    try {
      const batches: number[] = [];
      store.writes?.onBatch((b) => batches.push(b.size));
      const writes = [1, 2, 3].map((n) => store.calls.put(call(n)));
      // No await yet: the reads commit what is queued first.
      const page = await store.calls.list({ accountSid: ACCOUNT_A, limit: 10, offset: 0 });
      expect(page.items.map((c) => c.sid)).toEqual([call(1).sid, call(2).sid, call(3).sid]);
      await Promise.all(writes);
      expect(batches).toEqual([3]);
    } finally {
      await store.close();
    }
  });

  it('writes a call once for its changes in one batch, and not at all when nothing changed', async () => {
    const store = await openSqliteStore({ dir: tempDir() });
    const writes = countCallWrites(store.file);
    try {
      const ringing = call(1, {
        status: 'ringing',
        startTime: undefined,
        endTime: undefined,
        duration: undefined,
      });
      const answered = { ...ringing, status: 'in-progress' as const, startTime: ringing.dateCreated + 500 };
      void store.calls.put(ringing);
      const latest = store.calls.put(answered);
      expect(await store.calls.get(ACCOUNT_A, ringing.sid)).toEqual(answered);
      await latest;
      expect(writes()).toBe(1);
      await store.calls.put({ ...answered });
      expect(writes()).toBe(1);
      await store.calls.put(call(1));
      expect(writes()).toBe(2);
      expect(await store.calls.get(ACCOUNT_A, ringing.sid)).toEqual(call(1));
    } finally {
      await store.close();
    }
  });

  it('answers POST Calls only once the call is committed', async () => {
    const dir = tempDir();
    const store = await openSqliteStore({ dir });
    const token = 'group-commit-token';
    const { account: acct } = await ensureAccount(store, { sid: ACCOUNT_A, authToken: token });
    const app = await createEngineApp({ store, baseUrl: 'http://rcml.test', clock: 'virtual', seed: 3 });
    const other = new Database(store.file, { readonly: true });
    try {
      app.engine.registerHandler('http://app.test/voice', () => ({
        status: 200,
        contentType: 'text/xml',
        body: '<Response><Pause length="5"/></Response>',
      }));
      const res = await app.app.request(`/platform/2012-04-24/Accounts/${acct.sid}/Calls.json`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${acct.sid}:${token}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ From: '+15550001', To: '+15550002', Url: 'http://app.test/voice' }),
      });
      expect(res.status).toBe(200);
      const { sid } = (await res.json()) as { sid: string };
      // Another connection: only what is committed.
      expect(other.prepare('SELECT count(*) FROM calls WHERE sid = ?').pluck().get(sid)).toBe(1);
    } finally {
      other.close();
      await app.close();
    }
  });
});
