import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCallQueueStore } from '../../src/store/callqueue/memory.js';
import { type CallQueueStore, PhoneNumberTakenError } from '../../src/store/callqueue/ports.js';
import { postgresCallQueueStore } from '../../src/store/callqueue/postgres.js';
import { openSqliteCallQueueStore } from '../../src/store/callqueue/sqlite.js';
import { CALLQUEUE_MIGRATIONS, migrateCallQueue } from '../../src/store/callqueue/sqlite-migrations.js';
import type { CallQueueNumberRecord } from '../../src/store/callqueue/types.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B } from './fixtures.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-cq-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const number = (n: number, over: Partial<CallQueueNumberRecord> = {}): CallQueueNumberRecord => ({
  sid: `PN${n.toString(16).padStart(32, '0')}`,
  accountSid: ACCOUNT_A,
  phoneNumber: `+1555000${String(n).padStart(4, '0')}`,
  applicationUrl: `http://app.test/${n}`,
  applicationUrlMethod: 'POST',
  byoc: true,
  revision: 1,
  dateCreated: 1000 * n,
  dateUpdated: 1000 * n,
  ...over,
});

// PostgreSQL joins when the run has a server (otherwise one line at start says it is skipped).
const implementations: Array<[string, () => CallQueueStore | Promise<CallQueueStore>]> = [
  ['memory', () => createMemoryCallQueueStore()],
  [
    'sqlite',
    () => {
      const store = openSqliteCallQueueStore({ dir: tempDir() });
      cleanups.push(() => store.close());
      return store;
    },
  ],
  ...(PG_URL
    ? [
        [
          'postgres',
          async () => {
            const platform = await openScratchPostgres();
            cleanups.push(() => platform.close());
            return postgresCallQueueStore(platform.connection);
          },
        ] as [string, () => Promise<CallQueueStore>],
      ]
    : []),
];

describe.each(implementations)('%s Call Queuing store', (_name, make) => {
  it('puts, gets through the owning account, finds by phone number, lists in creation order', async () => {
    const store = await make();
    await store.numbers.put(number(1));
    await store.numbers.put(number(2, { accountSid: ACCOUNT_B }));
    await store.numbers.put(number(3));
    expect(await store.numbers.get(ACCOUNT_A, number(1).sid)).toEqual(number(1));
    expect(await store.numbers.get(ACCOUNT_B, number(1).sid)).toBeUndefined();
    expect(await store.numbers.findByPhoneNumber(number(2).phoneNumber)).toEqual(
      number(2, { accountSid: ACCOUNT_B }),
    );
    expect(await store.numbers.findByPhoneNumber('+19999999')).toBeUndefined();
    expect((await store.numbers.list(ACCOUNT_A)).map((n) => n.sid)).toEqual([number(1).sid, number(3).sid]);
    expect((await store.numbers.listAll()).map((n) => n.sid)).toEqual([1, 2, 3].map((n) => number(n).sid));
    // Replacing keeps the place in the order.
    await store.numbers.put(number(1, { revision: 2, applicationUrl: 'http://app.test/new' }));
    expect((await store.numbers.list(ACCOUNT_A)).map((n) => [n.sid, n.revision])).toEqual([
      [number(1).sid, 2],
      [number(3).sid, 1],
    ]);
  });

  it('refuses a second record for a phone number, and frees it on delete', async () => {
    const store = await make();
    await store.numbers.put(number(1));
    await expect(store.numbers.put(number(2, { phoneNumber: number(1).phoneNumber }))).rejects.toBeInstanceOf(
      PhoneNumberTakenError,
    );
    expect(await store.numbers.delete(ACCOUNT_B, number(1).sid)).toBe(false);
    expect(await store.numbers.delete(ACCOUNT_A, number(1).sid)).toBe(true);
    expect(await store.numbers.delete(ACCOUNT_A, number(1).sid)).toBe(false);
    await store.numbers.put(number(2, { phoneNumber: number(1).phoneNumber }));
    expect((await store.numbers.findByPhoneNumber(number(1).phoneNumber))?.sid).toBe(number(2).sid);
  });

  it('appends events numbered in order and lists them per number and call', async () => {
    const store = await make();
    const base = { accountSid: ACCOUNT_A, numberSid: number(1).sid, at: 5 };
    const e1 = await store.events.append({ ...base, callSid: 'CA1', type: 'status', status: 'ringing' });
    const e2 = await store.events.append({
      ...base,
      callSid: 'CA2',
      type: 'enqueue',
      side: 'dialer',
      position: 1,
    });
    const e3 = await store.events.append({ ...base, callSid: 'CA1', type: 'match', partnerCallSid: 'CA9' });
    await store.events.append({ ...base, numberSid: number(2).sid, callSid: 'CA3', type: 'status' });
    expect(e2.id).toBeGreaterThan(e1.id);
    expect(e3.id).toBeGreaterThan(e2.id);
    expect(await store.events.list(ACCOUNT_A, number(1).sid)).toEqual([e1, e2, e3]);
    expect(await store.events.list(ACCOUNT_A, number(1).sid, { callSid: 'CA1' })).toEqual([e1, e3]);
    expect(await store.events.list(ACCOUNT_B, number(1).sid)).toEqual([]);
  });
});

describe('SQLite Call Queuing store', () => {
  it('keeps numbers and events across reopening', async () => {
    const dir = tempDir();
    const first = openSqliteCallQueueStore({ dir });
    await first.numbers.put(number(1));
    await first.events.append({
      accountSid: ACCOUNT_A,
      numberSid: number(1).sid,
      callSid: 'CA1',
      type: 'drop',
      at: 1,
    });
    await first.close();
    const second = openSqliteCallQueueStore({ dir, durability: 'power' });
    cleanups.push(() => second.close());
    expect(await second.numbers.listAll()).toEqual([number(1)]);
    expect(await second.events.list(ACCOUNT_A, number(1).sid)).toHaveLength(1);
  });

  it('applies its own migrations once and refuses a newer schema', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    expect(migrateCallQueue(db)).toEqual(CALLQUEUE_MIGRATIONS.map((m) => m.version));
    expect(migrateCallQueue(db)).toEqual([]);
    db.prepare('INSERT INTO callqueue_migrations VALUES (999, ?, 0)').run('future');
    expect(() => migrateCallQueue(db)).toThrow(/newer/);
  });
});
