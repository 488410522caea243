import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { createSessionStore, csrfMatches } from '../../../src/api/console/sessions.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, tokenOf } from '../../store/fixtures.js';

describe('console sessions', () => {
  it('end after the idle time without use, and each use moves the idle expiry on', () => {
    let now = 0;
    const store = createSessionStore({ idleMs: 1000, maxAgeMs: 10_000, now: () => now });
    const { id } = store.create('AC1', 'token');
    now = 900;
    expect(store.touch(id)?.accountSid).toBe('AC1');
    now = 1800;
    expect(store.alive(id)).toBe(true);
    expect(store.touch(id)).toBeDefined();
    now = 2800;
    expect(store.alive(id)).toBe(false);
    expect(store.touch(id)).toBeUndefined();
  });

  it('end at the absolute expiry however much they are used', () => {
    let now = 0;
    const store = createSessionStore({ idleMs: 1000, maxAgeMs: 2500, now: () => now });
    const { id } = store.create('AC1', 'token');
    for (now = 500; now < 2500; now += 500) expect(store.touch(id)).toBeDefined();
    now = 2500;
    expect(store.touch(id)).toBeUndefined();
  });

  it('hold the credentials of the REST calls and a CSRF token, and drop the oldest past the limit', () => {
    const store = createSessionStore({ maxSessions: 2 });
    const first = store.create('AC1', 'secret');
    expect(first.session.authorization).toBe(`Basic ${Buffer.from('AC1:secret').toString('base64')}`);
    expect(first.id).not.toContain('secret');
    expect(csrfMatches(first.session, first.session.csrf)).toBe(true);
    expect(csrfMatches(first.session, `${first.session.csrf}x`)).toBe(false);
    expect(csrfMatches(first.session, undefined)).toBe(false);
    const second = store.create('AC2', 't');
    store.create('AC3', 't');
    expect(store.touch(first.id)).toBeUndefined();
    expect(store.touch(second.id)?.accountSid).toBe('AC2');
    store.destroy(second.id);
    expect(store.touch(second.id)).toBeUndefined();
    expect(store.touch('not-a-session')).toBeUndefined();
  });
});

describe('console sessions of many accounts', () => {
  it('one account logging in 10,000 times drops only its own oldest sessions', () => {
    const store = createSessionStore({ maxSessions: 1000, maxSessionsPerAccount: 5 });
    const others = Array.from({ length: 50 }, (_, i) => store.create(`ACother${i}`, 't'));
    const mine = Array.from({ length: 10_000 }, () => store.create('ACflood', 't'));
    for (const other of others) expect(store.alive(other.id)).toBe(true);
    expect(mine.filter((m) => store.alive(m.id))).toHaveLength(5);
    expect(mine.slice(-5).every((m) => store.alive(m.id))).toBe(true);
  });

  it('a full store takes from the account holding the most, and drops expired sessions first', () => {
    let now = 0;
    const store = createSessionStore({
      maxSessions: 4,
      maxSessionsPerAccount: 3,
      idleMs: 100,
      now: () => now,
    });
    const a = [store.create('ACa', 't'), store.create('ACa', 't'), store.create('ACa', 't')];
    const b = store.create('ACb', 't');
    const c = store.create('ACc', 't');
    expect(store.alive(a[0].id)).toBe(false);
    expect([a[1], a[2], b, c].every((s) => store.alive(s.id))).toBe(true);
    // Expired sessions of the account make room before live ones are dropped.
    now = 50;
    const fresh = store.create('ACb', 't');
    now = 120;
    expect(store.touch(fresh.id)?.accountSid).toBe('ACb');
    store.create('ACb', 't');
    store.create('ACb', 't');
    expect(store.alive(fresh.id)).toBe(true);
  });

  it("count logins against the account's request rate (429 with Retry-After past it)", async () => {
    let t = 0;
    const records = createMemoryStore();
    await records.accounts.put(account(ACCOUNT_A));
    await records.accounts.put(account(ACCOUNT_B));
    const app = createApp({
      store: records,
      baseUrl: 'http://api.test',
      rateLimit: { requestsPerSecond: 1, burst: 3, now: () => t },
      console: { assetsDir: '/nonexistent' },
    });
    const login = (sid: string) =>
      app.fetch(
        new Request('http://api.test/console/api/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ accountSid: sid, authToken: tokenOf(sid) }),
        }),
      );
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(ACCOUNT_A)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await login(ACCOUNT_A);
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(await refused.json()).toMatchObject({ code: 20429, kind: 'too-many-requests' });
    expect(refused.headers.get('Set-Cookie')).toBeNull();
    // Another account's bucket is its own; the first refills with time.
    expect((await login(ACCOUNT_B)).status).toBe(200);
    t += 1000;
    expect((await login(ACCOUNT_A)).status).toBe(200);
  });
});
