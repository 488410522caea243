import { describe, expect, it } from 'vitest';
import { createEngineApp } from '../../../src/api/engine-server.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ACCOUNT_A, account } from '../../store/fixtures.js';
import { AUTH_A, BASE, ROOT_A } from '../harness.js';

async function server() {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const built = await createEngineApp({ store, baseUrl: BASE, clock: 'virtual', seed: 5 });
  built.engine.registerHandler('http://app.test/wait', () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Pause length="600"/></Response>',
  }));
  const post = (path: string, fields: Record<string, string>) =>
    built.app.fetch(
      new Request(BASE + path, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  const place = () =>
    post(`${ROOT_A}/Calls.json`, { From: '+1555', To: '+1666', Url: 'http://app.test/wait' });
  return { ...built, store, post, place };
}

describe('drain', () => {
  it('refuses new calls (outbound and inbound) with 20503 and resolves once the live call ends', async () => {
    const s = await server();
    const sid = ((await (await s.place()).json()) as { sid: string }).sid;
    await s.post('/sim/Advance', { Seconds: '1' });
    let drained = false;
    const drain = s.drain(new Promise(() => undefined)).then(() => {
      drained = true;
    });
    const refused = await s.place();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 20503 });
    const inbound = await s.post('/sim/Calls', { From: '+1555', To: '+1777' });
    expect(inbound.status).toBe(503);
    const ready = await s.app.fetch(new Request(`${BASE}/ready`));
    expect(await ready.json()).toMatchObject({ status: 'unavailable', failing: ['accepting-calls'] });
    expect(drained).toBe(false);
    await s.post('/sim/Advance', { Seconds: '600' });
    await drain;
    expect(s.engine.liveCount).toBe(0);
    expect(await s.store.calls.get(ACCOUNT_A, sid)).toMatchObject({ status: 'completed' });
    await s.close();
  });

  it('resolves at the deadline with calls still live; close then ends them with final records', async () => {
    const s = await server();
    const sid = ((await (await s.place()).json()) as { sid: string }).sid;
    await s.post('/sim/Advance', { Seconds: '2' });
    let release: () => void = () => undefined;
    const deadline = new Promise<void>((resolve) => {
      release = resolve;
    });
    const drain = s.drain(deadline);
    release();
    await drain;
    expect(s.engine.liveCount).toBe(1);
    await s.close();
    expect(await s.store.calls.get(ACCOUNT_A, sid)).toMatchObject({ status: 'completed', duration: 2 });
  });
});
