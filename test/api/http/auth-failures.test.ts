import { afterEach, describe, expect, it } from 'vitest';
import { createFailureWindow } from '../../../src/api/http/auth-failures.js';
import { type RunningServer, startServer } from '../../../src/api/server.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../../store/fixtures.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const basic = (sid: string, token: string) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

async function server(now: () => number) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const s = await startServer({
    store,
    host: '127.0.0.1',
    port: 0,
    authFailures: { failures: 5, windowMs: 60_000, now },
    console: { assetsDir: '/nonexistent', logins: { failures: 3, now } },
  });
  servers.push(s);
  const calls = (auth: string) =>
    fetch(`${s.url}/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`, { headers: { Authorization: auth } });
  const login = (accountSid: string, authToken: string) =>
    fetch(`${s.url}/console/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ accountSid, authToken }),
    });
  return { calls, login };
}

describe('failed authentications per source address', () => {
  it('past the limit, Basic credentials from the address answer 429 until the window ends', async () => {
    let t = 0;
    const s = await server(() => t);
    for (let i = 0; i < 5; i++) expect((await s.calls(basic(ACCOUNT_A, `guess${i}`))).status).toBe(401);
    const refused = await s.calls(basic(ACCOUNT_A, tokenOf(ACCOUNT_A)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(await refused.json()).toMatchObject({ code: 20429, kind: 'too-many-requests' });
    // Requests without credentials are neither counted nor refused.
    expect((await fetch(refused.url.replace(/\/2012.*/, '/health'))).status).toBe(200);
    t = 60_000;
    expect((await s.calls(basic(ACCOUNT_A, tokenOf(ACCOUNT_A)))).status).toBe(200);
  });

  it('one address cannot flush the console failure table with made-up sids', async () => {
    const t = 0;
    const s = await server(() => t);
    // Three failures lock the real sid's logins for the minute.
    for (let i = 0; i < 3; i++) expect((await s.login(ACCOUNT_A, `guess${i}`)).status).toBe(401);
    expect((await s.login(ACCOUNT_A, tokenOf(ACCOUNT_A))).status).toBe(429);
    // Made-up sids soon count against the address instead of filling the table.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await s.login(`AC${String(i).padStart(32, '0')}`, 'x')).status);
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(2).every((status) => status === 429)).toBe(true);
  });
});

describe('the failure window', () => {
  it('ends each window after its length, and forgets a cleared key', () => {
    let t = 0;
    const window = createFailureWindow(2, 1000, () => t);
    window.failed('a');
    window.failed('a');
    expect(window.blockedFor('a')).toBe(1);
    t = 999;
    expect(window.blockedFor('a')).toBe(1);
    t = 1000;
    expect(window.blockedFor('a')).toBeUndefined();
    window.failed('b');
    window.clear('b');
    expect(window.blockedFor('b')).toBeUndefined();
  });

  it('when full, drops every ended window before any live one, then the oldest live one', () => {
    let t = 0;
    const window = createFailureWindow(1, 1000, () => t, 3);
    window.failed('ended1');
    window.failed('ended2');
    t = 500;
    window.failed('locked');
    t = 1200;
    // Full: the two ended windows make room, and the locked key stays locked.
    window.failed('new1');
    window.failed('new2');
    expect(window.blockedFor('locked')).toBe(1);
    expect(window.blockedFor('new1')).toBe(1);
    expect(window.blockedFor('new2')).toBe(1);
    // Full of live windows: the oldest goes.
    window.failed('new3');
    expect(window.blockedFor('locked')).toBeUndefined();
    expect(window.blockedFor('new3')).toBe(1);
  });
});
