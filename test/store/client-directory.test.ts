/**
 * The SIP clients directory over a store: active clients by login, every account's; writes
 * through its repository count before they resolve; other writers' at the next reload.
 */
import { describe, expect, it } from 'vitest';
import { openClientDirectory } from '../../src/store/client-directory.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { ClientRecord } from '../../src/store/types.js';
import { ACCOUNT_A, ACCOUNT_B, account } from './fixtures.js';

const client = (n: number, over: Partial<ClientRecord> = {}): ClientRecord => ({
  sid: `CL${n.toString(16).padStart(32, '0')}`,
  accountSid: ACCOUNT_A,
  apiVersion: '2012-04-24',
  friendlyName: `client ${n}`,
  login: 'alice',
  password: `secret-${n}`,
  status: 'active',
  voiceMethod: 'POST',
  voiceFallbackMethod: 'POST',
  dateCreated: n,
  dateUpdated: n,
  ...over,
});

describe('client directory', () => {
  it('answers active clients by login, reloaded by writes through it and by reload()', async () => {
    const store = createMemoryStore();
    await store.clients.put(client(1));
    await store.clients.put(client(2, { login: 'bob', status: 'inactive' }));
    const directory = await openClientDirectory(store.clients, { reloadMs: 0 });
    expect(directory.clientsOf('alice')).toEqual([{ accountSid: ACCOUNT_A, password: 'secret-1' }]);
    expect(directory.clientsOf('bob')).toEqual([]);
    // Through the directory's repository: seen as soon as the write resolves.
    await directory.repository.put(client(3, { login: 'alice', accountSid: ACCOUNT_B }));
    expect(directory.clientsOf('alice').map((c) => c.accountSid)).toEqual([ACCOUNT_A, ACCOUNT_B]);
    await directory.repository.put(client(2, { login: 'bob', status: 'active' }));
    expect(directory.clientsOf('bob')).toEqual([{ accountSid: ACCOUNT_A, password: 'secret-2' }]);
    expect(await directory.repository.delete(ACCOUNT_A, client(1).sid)).toBe(true);
    expect(directory.clientsOf('alice').map((c) => c.accountSid)).toEqual([ACCOUNT_B]);
    // Another writer of the same store: seen at the next reload.
    await store.clients.put(client(4, { login: 'carol' }));
    expect(directory.clientsOf('carol')).toEqual([]);
    await directory.reload();
    expect(directory.clientsOf('carol')).toHaveLength(1);
    directory.close();
  });

  it("gives a client's voice URL and methods, which its own calls run", async () => {
    const store = createMemoryStore();
    await store.clients.put(
      client(1, {
        voiceUrl: 'https://app.test/alice',
        voiceMethod: 'GET',
        voiceFallbackUrl: 'https://app.test/f',
      }),
    );
    await store.clients.put(client(2, { login: 'bob' }));
    const directory = await openClientDirectory(store.clients, { reloadMs: 0 });
    expect(directory.clientsOf('alice')[0].voice).toEqual({
      url: 'https://app.test/alice',
      method: 'GET',
      fallbackUrl: 'https://app.test/f',
      fallbackMethod: 'POST',
    });
    expect(directory.clientsOf('bob')[0].voice).toBeUndefined();
    directory.close();
  });

  it("runs a client's application before its voice URL, looked up once a load; its voice URL when the application is gone", async () => {
    const store = createMemoryStore();
    const app = `AP${'1'.repeat(32)}`;
    const gone = `AP${'2'.repeat(32)}`;
    await store.clients.put(client(1, { voiceUrl: 'https://app.test/alice', voiceApplicationSid: app }));
    await store.clients.put(
      client(2, { login: 'bob', voiceApplicationSid: app, voiceFallbackUrl: 'https://f.test/' }),
    );
    await store.clients.put(
      client(3, { login: 'carol', voiceUrl: 'https://app.test/carol', voiceApplicationSid: gone }),
    );
    const asked: string[] = [];
    const directory = await openClientDirectory(store.clients, {
      reloadMs: 0,
      applicationUrl: async (accountSid, sid) => {
        asked.push(`${accountSid} ${sid}`);
        return sid === app ? 'https://rcml.test/apps/1/controller' : undefined;
      },
    });
    expect(directory.clientsOf('alice')[0].voice).toEqual({
      url: 'https://rcml.test/apps/1/controller',
      method: 'POST',
      fallbackUrl: undefined,
      fallbackMethod: 'POST',
    });
    expect(directory.clientsOf('bob')[0].voice).toMatchObject({
      url: 'https://rcml.test/apps/1/controller',
      fallbackUrl: 'https://f.test/',
    });
    expect(directory.clientsOf('carol')[0].voice?.url).toBe('https://app.test/carol');
    expect(asked.sort()).toEqual([`${ACCOUNT_A} ${app}`, `${ACCOUNT_A} ${gone}`]);
    directory.close();
  });

  it('leaves out the clients of a suspended or closed account', async () => {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    await store.accounts.put({ ...account(ACCOUNT_B), status: 'suspended' });
    await store.clients.put(client(1));
    await store.clients.put(client(2, { accountSid: ACCOUNT_B }));
    const directory = await openClientDirectory(store.clients, { accounts: store.accounts, reloadMs: 0 });
    expect(directory.clientsOf('alice')).toEqual([{ accountSid: ACCOUNT_A, password: 'secret-1' }]);
    await store.accounts.put({ ...account(ACCOUNT_B), status: 'active' });
    await directory.reload();
    expect(directory.clientsOf('alice')).toHaveLength(2);
    directory.close();
  });

  it('keeps what it had when a reload fails, and reports it', async () => {
    const store = createMemoryStore();
    await store.clients.put(client(1));
    let fail = false;
    const repository = {
      ...store.clients,
      all: async () => {
        if (fail) throw new Error('store down');
        return store.clients.all();
      },
    };
    const errors: unknown[] = [];
    const directory = await openClientDirectory(repository, { reloadMs: 0, onError: (e) => errors.push(e) });
    fail = true;
    await expect(directory.reload()).rejects.toThrow('store down');
    expect(directory.clientsOf('alice')).toHaveLength(1);
    // A write that succeeded is not failed by the reload after it.
    await directory.repository.put(client(2, { login: 'bob' }));
    expect(errors).toHaveLength(1);
    expect(directory.clientsOf('bob')).toEqual([]);
    fail = false;
    await directory.reload();
    expect(directory.clientsOf('bob')).toHaveLength(1);
    directory.close();
  });
});
