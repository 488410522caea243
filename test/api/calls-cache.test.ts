import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_B, call } from '../store/fixtures.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ROOT_A, setup } from './harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-api-cache-'));
  dirs.push(d);
  return d;
}

/** A store whose calls list counts how often it is asked. */
function counting(store: Store) {
  const asked = { lists: 0 };
  const calls = { ...store.calls };
  const list = store.calls.list;
  calls.list = (q) => {
    asked.lists++;
    return list(q);
  };
  return { store: { ...store, calls, close: () => store.close() } as Store, asked };
}

const kinds: Array<[string, () => Store | Promise<Store>]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', () => openScratchPostgres()] as [string, () => Promise<Store>]] : []),
];

type Body = { total: number; calls: Array<{ sid: string; status: string }> };

describe.each(kinds)('Calls list pages over a %s store', (_name, open) => {
  it('are rendered once while the calls stay unchanged, again after any write to them', async () => {
    const { store, asked } = counting(await open());
    const h = await setup(undefined, store);
    await h.store.calls.putMany([call(1), call(2, { to: '+3' })]);
    const list = async (query = '') => (await h.json(`${ROOT_A}/Calls.json${query}`)).body as unknown as Body;

    expect((await list()).total).toBe(2);
    expect((await list()).total).toBe(2);
    expect(asked.lists).toBe(1);
    // Another query, another format: rendered separately.
    expect((await list('?To=%2B3')).calls.map((c) => c.sid)).toEqual([call(2).sid]);
    const xml = await (await h.request(`${ROOT_A}/Calls.xml`)).text();
    expect(xml).toContain(`<Sid>${call(1).sid}</Sid>`);
    expect(asked.lists).toBe(3);

    // Another account's write leaves the page alone.
    await h.store.calls.put(call(50, { accountSid: ACCOUNT_B }));
    await list();
    expect(asked.lists).toBe(3);

    // A new call, and a changed call, show at once.
    await h.store.calls.put(call(3));
    expect((await list()).total).toBe(3);
    await h.store.calls.putMany([call(1, { status: 'busy' })]);
    expect((await list()).calls[0].status).toBe('busy');
    expect((await list('?To=%2B3')).calls.map((c) => c.sid)).toEqual([call(2).sid]);
    expect(asked.lists).toBe(6);
    await store.close();
  });

  it('never keeps an error', async () => {
    const { store, asked } = counting(await open());
    const h = await setup(undefined, store);
    expect((await h.json(`${ROOT_A}/Calls.json?PageSize=0`)).status).toBe(400);
    expect((await h.json(`${ROOT_A}/Calls.json?PageSize=0`)).status).toBe(400);
    expect((await h.json(`${ROOT_A}/Calls.json`, { auth: null })).status).toBe(401);
    expect(asked.lists).toBe(0);
    await store.close();
  });
});

describe('Calls list pages over SQLite', () => {
  it('show calls another process committed to the same database', async () => {
    const dir = tempDir();
    const h = await setup(undefined, await openSqliteStore({ dir }));
    await h.store.calls.put(call(1));
    const total = async () => ((await h.json(`${ROOT_A}/Calls.json`)).body as unknown as Body).total;
    expect(await total()).toBe(1);
    const other = await openSqliteStore({ dir });
    await other.calls.put(call(2));
    await other.close();
    expect(await total()).toBe(2);
    await h.store.close();
  });
});
