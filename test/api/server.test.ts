import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureAccount, startServer } from '../../src/api/server.js';
import { authTokenMatches } from '../../src/store/credentials.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { call, recording, wav } from '../store/fixtures.js';
import { basic } from './harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('startServer over a real 127.0.0.1 port with SQLite', () => {
  it('serves records, keeps them across a restart and downloads WAV without auth', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-server-'));
    dirs.push(dir);
    let store = await openSqliteStore({ dir });
    const { account, created, authToken } = await ensureAccount(store, {});
    expect(created).toBe(true);
    expect(authToken).toMatch(/^[0-9a-f]{32}$/);
    expect(account.sid).toMatch(/^AC[0-9a-f]{32}$/);
    await store.calls.put(call(1, { accountSid: account.sid }));
    await store.recordings.put(recording(1, { accountSid: account.sid }), wav(80));
    let server = await startServer({ store, host: '127.0.0.1', port: 0 });
    const auth = { Authorization: basic(account.sid, authToken as string) };
    const root = `${server.url}/platform/2012-04-24/Accounts/${account.sid}`;
    try {
      const res = await fetch(`${root}/Calls.json`, { headers: auth });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBe(1);
      expect((await fetch(`${root}/Calls.json`)).status).toBe(401);
      const rec = (await (
        await fetch(`${root}/Recordings/${recording(1).sid}.json`, { headers: auth })
      ).json()) as { file_uri: string };
      expect(rec.file_uri.startsWith(server.url)).toBe(true);
      const audio = await fetch(rec.file_uri);
      expect(audio.headers.get('content-type')).toBe('audio/wav');
      expect(new Uint8Array(await audio.arrayBuffer())).toEqual(wav(80));
    } finally {
      await server.close();
      await store.close();
    }
    store = await openSqliteStore({ dir });
    expect(await ensureAccount(store, {})).toEqual({ account, created: false });
    server = await startServer({
      store,
      host: '127.0.0.1',
      port: 0,
      baseUrl: 'https://calls.example.com/api',
    });
    try {
      const res = await fetch(`${server.url}/api/2012-04-24/Accounts/${account.sid}/Recordings.json`, {
        headers: auth,
      });
      const body = (await res.json()) as { recordings: Array<{ file_uri: string }> };
      expect(body.recordings[0].file_uri).toBe(
        `https://calls.example.com/api/platform/2012-04-24/Accounts/${account.sid}/Recordings/${recording(1).sid}.wav`,
      );
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('takes a given account and refuses malformed ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-server-'));
    dirs.push(dir);
    const store = await openSqliteStore({ dir });
    const sid = `AC${'d'.repeat(32)}`;
    expect((await ensureAccount(store, { sid, authToken: 'token-123' })).created).toBe(true);
    const first = await store.accounts.get(sid);
    // The same token again changes nothing; another one replaces it (the old one stops working).
    expect(await ensureAccount(store, { sid, authToken: 'token-123' })).toEqual({
      account: first,
      created: false,
    });
    const replaced = await ensureAccount(store, { sid, authToken: 'token-456' });
    expect(replaced.created).toBe(false);
    expect(replaced.authToken).toBeUndefined();
    expect(replaced.account.signingKey).toBe(first?.signingKey);
    expect(authTokenMatches(await store.accounts.get(sid), 'token-456')).toBe(true);
    expect(authTokenMatches(await store.accounts.get(sid), 'token-123')).toBe(false);
    await expect(ensureAccount(store, { sid: 'AC12', authToken: 'token-123' })).rejects.toThrow(
      /AC followed by 32 hex/,
    );
    await expect(ensureAccount(store, { sid })).rejects.toThrow(/both/);
    await store.close();
  });
});
