import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createEngineApp } from '../../src/api/engine-server.js';
import { createRateLimiter } from '../../src/api/http/rate-limit.js';
import { accountLimitsOf, SERVE_LIMIT_DEFAULTS } from '../../src/cli/commands/serve-limits.js';
import { createProgram } from '../../src/cli/program.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account, recording, tokenOf, wav } from '../store/fixtures.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const basic = (sid: string, token = tokenOf(sid)) =>
  `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
const calls = (sid: string) => `http://api.test/platform/2012-04-24/Accounts/${sid}/Calls.json`;

describe('token bucket', () => {
  it('lets a burst through, then one request per 1/rate seconds, with the wait it needs', () => {
    let t = 0;
    const limiter = createRateLimiter({ requestsPerSecond: 2, burst: 3, now: () => t });
    expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').ok).toBe(true);
    t = 499;
    expect(limiter.take('a').ok).toBe(false);
    t = 500;
    expect(limiter.take('a').ok).toBe(true);
    t = 100_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a').ok)).toEqual([true, true, true, false]);
  });

  it('never lets more than burst + rate x elapsed through, whatever the arrival times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }),
        (rate, burst, gaps) => {
          let t = 0;
          const limiter = createRateLimiter({ requestsPerSecond: rate, burst, now: () => t });
          let accepted = 0;
          for (const gap of gaps) {
            t += gap;
            if (limiter.take('k').ok) accepted++;
          }
          expect(accepted).toBeLessThanOrEqual(burst + (rate * t) / 1000 + 1e-9);
          // A refusal always names a wait of at least a second.
          const verdict = limiter.take('k');
          if (!verdict.ok) expect(verdict.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses a rate or burst that is not a positive number', () => {
    expect(() => createRateLimiter({ requestsPerSecond: 0 })).toThrow(/requestsPerSecond/);
    expect(() => createRateLimiter({ requestsPerSecond: 1, burst: 0 })).toThrow(/burst/);
  });
});

describe('API requests per second of each account', () => {
  async function limitedApp() {
    let t = 0;
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    await store.accounts.put(account(ACCOUNT_B));
    await store.recordings.put(recording(1), wav(8));
    const reads = vi.spyOn(store.accounts, 'get');
    const app = createApp({
      store,
      baseUrl: 'http://api.test',
      rateLimit: { requestsPerSecond: 1, burst: 2, now: () => t },
    });
    const get = (url: string, auth?: string) =>
      app.fetch(new Request(url, { headers: auth === undefined ? {} : { Authorization: auth } }));
    return { get, reads, advance: (ms: number) => (t += ms) };
  }

  it('answers 429 with Retry-After past the bucket, per account, and again 200 once it refills', async () => {
    const { get, reads, advance } = await limitedApp();
    expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A))).status).toBe(200);
    // The account is read once per request: the route's own authentication reuses it.
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A))).status).toBe(200);
    const refused = await get(calls(ACCOUNT_A), basic(ACCOUNT_A));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toMatchObject({
      code: 20429,
      status: 429,
      kind: 'too-many-requests',
      more_info: 'docs/errors.md#20429',
    });
    // Another account has its own bucket; other areas count against the same one.
    expect((await get(calls(ACCOUNT_B), basic(ACCOUNT_B))).status).toBe(200);
    expect((await get('http://api.test/visual-designer/services/projects', basic(ACCOUNT_A))).status).toBe(
      429,
    );
    advance(1000);
    expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A))).status).toBe(200);
    expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A))).status).toBe(429);
  });

  it('counts neither wrong credentials nor unauthenticated routes', async () => {
    const { get } = await limitedApp();
    for (let i = 0; i < 5; i++) {
      expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A, 'wrong-token'))).status).toBe(401);
      expect((await get(calls(ACCOUNT_A))).status).toBe(401);
      const audio = `http://api.test/platform/2012-04-24/Accounts/${ACCOUNT_A}/Recordings/${recording(1).sid}.wav`;
      expect((await get(audio)).status).toBe(200);
    }
    expect((await get(calls(ACCOUNT_A), basic(ACCOUNT_A))).status).toBe(200);
  });
});

describe('live calls of each account', () => {
  async function platform(maxLiveCalls: number) {
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    await store.accounts.put(account(ACCOUNT_B));
    const legs: string[] = [];
    const p = await createEngineApp({
      store,
      clock: 'virtual',
      seed: 9,
      baseUrl: 'http://api.test',
      accountLimits: { maxLiveCalls },
      engine: {
        onEvent: (e) => {
          if (e.type === 'leg') legs.push(e.to);
        },
      },
    });
    cleanups.push(() => p.close());
    p.engine.registerHandler('http://app.test/hold', () => ({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Pause length="60"/></Response>',
    }));
    // A Dial of 300 numbers, none of which answers.
    p.engine.setDefaultParty({ outcome: 'no-answer' });
    const numbers = Array.from(
      { length: 300 },
      (_, i) => `<Number>+1555${String(i).padStart(7, '0')}</Number>`,
    );
    p.engine.registerHandler('http://app.test/dial-many', () => ({
      status: 200,
      contentType: 'text/xml',
      body: `<Response><Dial timeout="20">${numbers.join('')}</Dial></Response>`,
    }));
    const place = (sid: string, url = 'http://app.test/hold') =>
      p.app.fetch(
        new Request(calls(sid), {
          method: 'POST',
          headers: { Authorization: basic(sid), 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `From=%2B15550001&To=%2B15550002&Url=${encodeURIComponent(url)}`,
        }),
      );
    const codes = async (sid: string) =>
      (await store.notifications.list({ accountSid: sid, offset: 0, limit: 1000 })).items.map((n) => n.code);
    return { ...p, place, legs, codes };
  }

  it('rings at most 10 targets of one Dial, telling the rest with warning 13224', async () => {
    const { engine, place, legs, codes } = await platform(100);
    // The called party answers the call itself: only the Dial's targets do not.
    engine.setParty('+15550002', { outcome: 'answer' });
    expect((await place(ACCOUNT_A, 'http://app.test/dial-many')).status).toBe(200);
    await engine.advance(1);
    expect(legs).toHaveLength(10);
    expect(await codes(ACCOUNT_A)).toContain('13224');
  });

  it('places no Dial leg past the live-call limit, telling each refused target with warning 13225', async () => {
    const { engine, place, legs, codes } = await platform(5);
    engine.setParty('+15550002', { outcome: 'answer' });
    expect((await place(ACCOUNT_A, 'http://app.test/dial-many')).status).toBe(200);
    await engine.advance(1);
    // The call itself and four legs: five live calls.
    expect(legs).toHaveLength(4);
    const refused = (await codes(ACCOUNT_A)).filter((c) => c === '13225');
    expect(refused).toHaveLength(6);
    // A second call of the account finds no room left for any leg, nor for itself.
    expect((await place(ACCOUNT_A, 'http://app.test/dial-many')).status).toBe(429);
  });

  it('refuses a POST Calls past the limit with 429 and code 21230, until a call ends', async () => {
    const { engine, place } = await platform(2);
    expect((await place(ACCOUNT_A)).status).toBe(200);
    expect((await place(ACCOUNT_A)).status).toBe(200);
    await engine.advance(1);
    const refused = await place(ACCOUNT_A);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: number; kind: string; message: string };
    expect(body).toMatchObject({ code: 21230, kind: 'too-many-live-calls' });
    expect(body.message).toContain('2 live calls');
    // The other account is not held to the first one's calls.
    expect((await place(ACCOUNT_B)).status).toBe(200);
    await engine.advance(61);
    expect((await place(ACCOUNT_A)).status).toBe(200);
  });

  it('refuses a limit that is not a whole number >= 1', async () => {
    await expect(platform(0)).rejects.toThrow(/maxLiveCalls/);
  });

  it('still lists conference rooms (the limit wraps the engine without hiding its other operations)', async () => {
    const { app } = await platform(2);
    const res = await app.fetch(
      new Request(`http://api.test/platform/2012-04-24/Accounts/${ACCOUNT_A}/Conferences.json`, {
        headers: { Authorization: basic(ACCOUNT_A) },
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { conferences: unknown[] }).conferences).toEqual([]);
  });
});

describe('rcml serve limit flags', () => {
  it('each reads its RCML_ variable, and the defaults are on', () => {
    const serve = createProgram().commands.find((c) => c.name() === 'serve');
    const envOf = (flag: string) => serve?.options.find((o) => o.long === flag)?.envVar;
    expect(envOf('--api-rate')).toBe('RCML_API_RATE');
    expect(envOf('--api-burst')).toBe('RCML_API_BURST');
    expect(envOf('--max-live-calls')).toBe('RCML_MAX_LIVE_CALLS');
    expect(
      accountLimitsOf({
        apiRate: SERVE_LIMIT_DEFAULTS.apiRate,
        maxLiveCalls: SERVE_LIMIT_DEFAULTS.maxLiveCalls,
      }),
    ).toEqual({
      api: { requestsPerSecond: 100, burst: undefined },
      maxLiveCalls: 100,
    });
    expect(accountLimitsOf({ apiRate: 0, maxLiveCalls: 0 })).toBeUndefined();
    expect(accountLimitsOf({ apiRate: 5, apiBurst: 7, maxLiveCalls: 0 })).toEqual({
      api: { requestsPerSecond: 5, burst: 7 },
    });
  });
});
