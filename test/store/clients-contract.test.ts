/**
 * The Clients repository of every store: a login unique per account (and refused without
 * writing), reads through the owning account only, paging in creation order, every account's
 * clients for the SIP directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { DuplicateLoginError, type Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import type { ClientRecord } from '../../src/store/types.js';
import { openScratchPostgres, PG_URL } from '../support/services.js';
import { ACCOUNT_A, ACCOUNT_B } from './fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rcml-clients-'));
  dirs.push(d);
  return d;
}

const kinds: Array<[string, () => Store | Promise<Store>]> = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => openSqliteStore({ dir: tempDir() })],
  ...(PG_URL ? [['postgres', () => openScratchPostgres()] as [string, () => Promise<Store>]] : []),
];

function client(n: number, over: Partial<ClientRecord> = {}): ClientRecord {
  return {
    sid: `CL${n.toString(16).padStart(32, '0')}`,
    accountSid: ACCOUNT_A,
    apiVersion: '2012-04-24',
    friendlyName: `client ${n}`,
    login: `user${n}`,
    password: `secret-${n}`,
    status: 'active',
    voiceMethod: 'POST',
    voiceFallbackMethod: 'POST',
    dateCreated: 1000 + n,
    dateUpdated: 1000 + n,
    ...over,
  };
}

describe.each(kinds)('%s store: clients', (_name, open) => {
  it('keeps a client, replaces it on put, and hides it from other accounts', async () => {
    const s = await open();
    await s.clients.put(client(1));
    await s.clients.put(client(1, { friendlyName: 'renamed', voiceUrl: 'http://app.test/voice' }));
    expect(await s.clients.get(ACCOUNT_A, client(1).sid)).toEqual(
      client(1, { friendlyName: 'renamed', voiceUrl: 'http://app.test/voice' }),
    );
    expect(await s.clients.get(ACCOUNT_B, client(1).sid)).toBeUndefined();
    expect(await s.clients.delete(ACCOUNT_B, client(1).sid)).toBe(false);
    expect(await s.clients.delete(ACCOUNT_A, client(1).sid)).toBe(true);
    expect(await s.clients.get(ACCOUNT_A, client(1).sid)).toBeUndefined();
    expect(await s.clients.delete(ACCOUNT_A, client(1).sid)).toBe(false);
    await s.close();
  });

  it('refuses a login another client of the account has, and writes nothing; other accounts may use it', async () => {
    const s = await open();
    await s.clients.put(client(1, { login: 'alice' }));
    await expect(s.clients.put(client(2, { login: 'alice' }))).rejects.toBeInstanceOf(DuplicateLoginError);
    expect(await s.clients.get(ACCOUNT_A, client(2).sid)).toBeUndefined();
    // Renaming the login of another client onto it is refused too.
    await s.clients.put(client(3, { login: 'bob' }));
    await expect(s.clients.put(client(3, { login: 'alice' }))).rejects.toBeInstanceOf(DuplicateLoginError);
    expect((await s.clients.get(ACCOUNT_A, client(3).sid))?.login).toBe('bob');
    await s.clients.put(client(4, { login: 'alice', accountSid: ACCOUNT_B }));
    // Deleted, the login is free again.
    await s.clients.delete(ACCOUNT_A, client(1).sid);
    await s.clients.put(client(2, { login: 'alice' }));
    expect((await s.clients.all()).map((c) => [c.accountSid, c.login])).toEqual([
      [ACCOUNT_A, 'alice'],
      [ACCOUNT_A, 'bob'],
      [ACCOUNT_B, 'alice'],
    ]);
    await s.close();
  });

  it('lists in creation order, filtered by login or name, paged with offsets and afterSid', async () => {
    const s = await open();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 4 }), async (n, size) => {
        for (const c of await s.clients.all()) await s.clients.delete(c.accountSid, c.sid);
        // Put in reverse: the order is by creation time, not by insertion.
        for (let i = n; i >= 1; i--) await s.clients.put(client(i, { friendlyName: i % 2 ? 'odd' : 'even' }));
        await s.clients.put(client(99, { accountSid: ACCOUNT_B }));
        const seen: string[] = [];
        let afterSid: string | undefined;
        for (let page = 0; page * size < n; page++) {
          const p = await s.clients.list({
            accountSid: ACCOUNT_A,
            offset: page * size,
            limit: size,
            afterSid,
          });
          expect(p.total).toBe(n);
          expect(p.offset).toBe(page * size);
          seen.push(...p.items.map((c) => c.login));
          afterSid = p.items.at(-1)?.sid;
        }
        expect(seen).toEqual(Array.from({ length: n }, (_, i) => `user${i + 1}`));
        const odd = await s.clients.list({
          accountSid: ACCOUNT_A,
          friendlyName: 'odd',
          offset: 0,
          limit: 50,
        });
        expect(odd.total).toBe(Math.ceil(n / 2));
        const one = await s.clients.list({ accountSid: ACCOUNT_A, login: 'user1', offset: 0, limit: 50 });
        expect(one.items.map((c) => c.sid)).toEqual(n >= 1 ? [client(1).sid] : []);
      }),
      { numRuns: 8 },
    );
    await s.close();
  });
});
