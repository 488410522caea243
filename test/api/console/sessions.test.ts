import { describe, expect, it } from 'vitest';
import { createSessionStore, csrfMatches } from '../../../src/api/console/sessions.js';

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
