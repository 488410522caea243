import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/open.js';
import { INTERRUPTED_CALL_CODE } from '../../src/store/recover.js';
import { sequentialSids } from '../../src/store/sid.js';
import { PG_URL, uniqueName } from '../support/services.js';
import { ACCOUNT_A, account, call, recording, wav } from './fixtures.js';

const open = (schema: string, more: { nodeId?: string; now?: () => number } = {}) =>
  openPostgresStore({ url: PG_URL, schema, poolSize: 3, sids: sequentialSids(1), ...more });

async function withSchema<T>(schema: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

describe.skipIf(!PG_URL)('PostgreSQL store', () => {
  it('records its schema migrations once, even when nodes open it together', async () => {
    const schema = uniqueName('s');
    const stores = await Promise.all([open(schema), open(schema), open(schema)]);
    for (const s of stores) await s.close();
    const versions = await withSchema(schema, (c) => c.query('SELECT version FROM rcml_migrations'));
    expect(versions.rows).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
      { version: 5 },
    ]);
  });

  it('refuses a database from a newer schema with a clear error', async () => {
    const schema = uniqueName('s');
    await (await open(schema)).close();
    await withSchema(schema, (c) => c.query("INSERT INTO rcml_migrations VALUES (99, 'future', 0)"));
    await expect(open(schema)).rejects.toThrow(/schema version 99 is newer/);
  });

  it('keeps records and WAV bytes for every node that opens the database', async () => {
    const schema = uniqueName('s');
    const one = await open(schema);
    const two = await open(schema);
    await one.accounts.put(account(ACCOUNT_A));
    await one.recordings.put(recording(1), wav(300));
    expect(await two.accounts.get(ACCOUNT_A)).toEqual(account(ACCOUNT_A));
    expect(await two.recordings.wav(ACCOUNT_A, recording(1).sid)).toEqual(wav(300));
    await one.close();
    await two.close();
  });

  it('commits the writes of one turn together, in the order they were made', async () => {
    const s = await open(uniqueName('s'));
    // Statuses of one call reported in a burst: the last one wins, whatever the pool does.
    const writes = (['queued', 'ringing', 'in-progress', 'completed'] as const).map((status) =>
      s.calls.put(call(1, { status })),
    );
    await Promise.all(writes);
    expect((await s.calls.get(ACCOUNT_A, call(1).sid))?.status).toBe('completed');
    // A read right after a write sees it, without waiting for the write's promise.
    void s.calls.put(call(2));
    expect(await s.calls.get(ACCOUNT_A, call(2).sid)).toEqual(call(2));
    await s.close();
  });

  it('fails only the bad write of a batch', async () => {
    const s = await open(uniqueName('s'));
    const good = s.calls.put(call(1));
    // NUL is not allowed in PostgreSQL text: this write fails.
    const bad = s.accounts.put({ ...account(ACCOUNT_A), friendlyName: 'a\u0000b', sid: 'AC\u0000' });
    const alsoGood = s.notifications.put({
      sid: 'NO1',
      accountSid: ACCOUNT_A,
      code: 'x',
      log: 0,
      message: 'm',
      dateCreated: 1,
    });
    await expect(bad).rejects.toThrow();
    await good;
    await alsoGood;
    expect(await s.calls.get(ACCOUNT_A, call(1).sid)).toBeDefined();
    expect(await s.notifications.get(ACCOUNT_A, 'NO1')).toBeDefined();
    await s.close();
  });

  it("closes on open the calls its node left live, and only that node's", async () => {
    const schema = uniqueName('s');
    const n1 = await open(schema, { nodeId: 'n1' });
    const n2 = await open(schema, { nodeId: 'n2' });
    await n1.calls.put(call(1, { status: 'in-progress', endTime: undefined, duration: undefined }));
    await n2.calls.put(call(2, { status: 'ringing', startTime: undefined, endTime: undefined }));
    expect(await n2.ownerOf(ACCOUNT_A, call(1).sid)).toBe('n1');
    expect((await n2.liveCallsOf('n2')).map((c) => c.sid)).toEqual([call(2).sid]);
    await n1.close();
    const now = call(1).startTime as number;
    const again = await open(schema, { nodeId: 'n1', now: () => now + 4500 });
    expect(again.interruptedCalls).toEqual([call(1).sid]);
    expect(await again.calls.get(ACCOUNT_A, call(1).sid)).toMatchObject({ status: 'completed', duration: 5 });
    expect((await again.calls.get(ACCOUNT_A, call(2).sid))?.status).toBe('ringing');
    const notes = await again.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 5 });
    expect(notes.items.map((n) => n.code)).toEqual([INTERRUPTED_CALL_CODE]);
    expect(await again.ownerOf(ACCOUNT_A, call(1).sid)).toBeUndefined();
    await again.close();
    await n2.close();
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openPostgresStore({ url: PG_URL, schema: 'x; DROP TABLE calls' })).rejects.toThrow(/schema/);
  });
});
