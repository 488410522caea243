import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { seededSids, skippingSids } from '../../src/engine/sids.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { ACCOUNT_A, account } from '../store/fixtures.js';
import { AUTH_A, BASE, ROOT_A } from './harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** One run of a seeded server over the data directory: places calls to `to`, runs them out. */
async function run(dir: string, to: string[]): Promise<string[]> {
  const store = await openSqliteStore({ dir });
  if (!(await store.accounts.get(ACCOUNT_A))) await store.accounts.put(account(ACCOUNT_A));
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 42,
    epoch: Date.UTC(2024, 2, 5),
  });
  built.engine.registerHandler('http://app.test/say', () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Gather numDigits="1" timeout="1"><Say>Hi</Say></Gather></Response>',
  }));
  const sids: string[] = [];
  try {
    for (const number of to) {
      const res = await built.app.fetch(
        new Request(`${BASE}${ROOT_A}/Calls.json`, {
          method: 'POST',
          headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ From: '+15550100', To: number, Url: 'http://app.test/say' }).toString(),
        }),
      );
      sids.push(((await res.json()) as { sid: string }).sid);
    }
    await built.engine.runUntilIdle();
  } finally {
    await built.close();
  }
  return sids;
}

describe('a seeded server started again on the same data', () => {
  it('draws past the sids the store holds: no record is replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-seeded-'));
    dirs.push(dir);
    const first = await run(dir, ['+15550001', '+15550002']);
    const second = await run(dir, ['+15550003', '+15550004']);
    expect(new Set([...first, ...second]).size).toBe(4);

    const store = await openSqliteStore({ dir });
    try {
      const calls = await store.calls.list({ accountSid: ACCOUNT_A, offset: 0, limit: 10 });
      expect(calls.total).toBe(4);
      const toOf = new Map(calls.items.map((c) => [c.sid, c.to]));
      expect([...first, ...second].map((sid) => toOf.get(sid))).toEqual([
        '+15550001',
        '+15550002',
        '+15550003',
        '+15550004',
      ]);
      const gathers = await store.gathers.list({ accountSid: ACCOUNT_A, kind: 'dtmf', offset: 0, limit: 10 });
      expect(new Set(gathers.items.map((g) => g.sid)).size).toBe(gathers.items.length);
      expect(gathers.total).toBe(4);
    } finally {
      await store.close();
    }
  });

  it('skippingSids passes over taken sids and keeps the seeded order otherwise', () => {
    const plain = seededSids(9);
    const drawn = [plain.next('CA'), plain.next('CA'), plain.next('CA')];
    const skipping = skippingSids(seededSids(9), (sid) => sid === drawn[0] || sid === drawn[1]);
    expect(skipping.next('CA')).toBe(drawn[2]);
  });
});
