/**
 * Store errors are contained: a store whose writes fail (a full disk) never takes a call or the
 * process down; writes answer 503 with Retry-After meanwhile, live calls go on and their
 * records land once the store can write again, and the server serves writes again by itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp, STORE_OVERFLOW_CODE } from '../../src/api/engine-server.js';
import { ensureAccount } from '../../src/api/server.js';
import type { WriteState } from '../../src/store/ports.js';
import { createFailingStore } from '../support/failing-store.js';

const SID = `AC${'f'.repeat(32)}`;
const TOKEN = 'store-faults-token';
const AUTH = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
const ROOT = `/platform/2012-04-24/Accounts/${SID}`;
const VOICE = 'http://app.test/voice';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setUp(options: { maxQueued?: number } = {}) {
  const lines: string[] = [];
  const double = createFailingStore({ maxQueued: options.maxQueued, log: (l) => lines.push(l) });
  await ensureAccount(double.store, { sid: SID, authToken: TOKEN });
  const app = await createEngineApp({
    store: double.store,
    baseUrl: 'http://rcml.test',
    clock: 'virtual',
    seed: 7,
  });
  closers.push(() => app.close());
  app.engine.registerHandler(VOICE, () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Pause length="10"/><Hangup/></Response>',
  }));
  const request = (method: string, path: string, form?: Record<string, string>) =>
    app.app.request(path, {
      method,
      headers: {
        Authorization: AUTH,
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
  const postCall = () =>
    request('POST', `${ROOT}/Calls.json`, { From: '+15550001', To: '+15550002', Url: VOICE });
  const state = (writable: boolean) =>
    new Promise<WriteState>((resolve) => {
      const writes = double.store.writes;
      if (writes?.writable === writable) return resolve(writes.state());
      const stop = writes?.onState((s) => {
        if (s.writable !== writable) return;
        stop?.();
        resolve(s);
      });
    });
  return { double, app, lines, request, postCall, state };
}

describe('a store that cannot write', () => {
  it('answers writes 503 with Retry-After, keeps live calls going, and serves again once it can write', async () => {
    const { double, app, lines, request, postCall, state } = await setUp();
    const live = (await (await postCall()).json()) as { sid: string };
    const liveStatus = () => {
      try {
        return app.engine.liveCall(live.sid).record.status;
      } catch {
        return undefined;
      }
    };
    await app.engine.advance(1);
    expect(liveStatus()).toBe('in-progress');

    double.failing = true;
    // The first POST finds out: its call cannot be recorded, so it is ended and refused.
    const refused = await postCall();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(await refused.json()).toMatchObject({ code: 20503, kind: 'store-unavailable', status: 503 });
    await state(false);
    // Later writes are refused before they do anything; reads go on.
    const early = await postCall();
    expect(early.status).toBe(503);
    expect(await early.json()).toMatchObject({ code: 20503, kind: 'store-unavailable' });
    expect((await request('GET', `${ROOT}/Calls/${live.sid}.json`)).status).toBe(200);
    const ready = await app.app.request('/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ failing: ['store'] });

    // The live call goes on and ends while nothing can be written.
    await app.engine.advance(10);
    expect(liveStatus()).toBeUndefined();
    expect(lines[0]).toMatch(/^rcml: the store cannot write \(no space left on device\)/);

    double.failing = false;
    await state(true);
    const stored = (await (await request('GET', `${ROOT}/Calls/${live.sid}.json`)).json()) as {
      status: string;
    };
    expect(stored.status).toBe('completed');
    expect((await postCall()).status).toBe(200);
    expect((await app.app.request('/ready')).status).toBe(200);
    expect(lines.at(-1)).toBe('rcml: the store writes again');
  });

  it('says so in a log line and a notification when its queue overflows, never silently', async () => {
    const { double, app, lines, request, postCall, state } = await setUp({ maxQueued: 4 });
    const sids: string[] = [];
    for (let i = 0; i < 4; i++) sids.push(((await (await postCall()).json()) as { sid: string }).sid);
    double.failing = true;
    // Every call changes (answered, then ended): more records than the queue holds.
    await app.engine.advance(1);
    await app.engine.advance(10);
    await state(false);
    expect(double.store.writes?.state().dropped).toBeGreaterThan(0);
    expect(lines.filter((l) => /queue is full/.test(l))).toHaveLength(1);

    double.failing = false;
    await state(true);
    const page = (await (await request('GET', `${ROOT}/Notifications.json`)).json()) as {
      notifications: Array<{ error_code: string; log: string; message_text: string }>;
    };
    const overflow = page.notifications.filter((n) => n.error_code === STORE_OVERFLOW_CODE);
    expect(overflow).toHaveLength(1);
    expect(overflow[0].message_text).toMatch(/records dropped/);
    expect(lines.at(-1)).toMatch(/^rcml: the store writes again; \d+ record\(s\) were dropped/);
  });
});
