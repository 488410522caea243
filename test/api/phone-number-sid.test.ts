import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { numberSid } from '../../src/engine/sids.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account } from '../store/fixtures.js';
import { AUTH_A, BASE, ROOT_A } from './harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function inboundCallTo(number: string, config: { sid?: string } = {}) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: 'virtual',
    seed: 5,
    numbers: { [number]: { voiceUrl: 'http://app.test/hello', ...config } },
  });
  opened.push(built);
  built.engine.registerHandler('http://app.test/hello', () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Say>Hello</Say></Response>',
  }));
  const post = (path: string, fields: Record<string, string>) =>
    built.app.fetch(
      new Request(BASE + path, {
        method: 'POST',
        headers: { Authorization: AUTH_A, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  const placed = (await (await post('/sim/Calls', { From: '+15551111', To: number })).json()) as {
    sid: string;
  };
  await built.engine.runUntilIdle();
  const res = await built.app.fetch(
    new Request(`${BASE}${ROOT_A}/Calls/${placed.sid}.json`, { headers: { Authorization: AUTH_A } }),
  );
  return (await res.json()) as { phone_number_sid: string; direction: string };
}

describe('phone_number_sid of inbound calls', () => {
  it('is the PN sid of the routed number, stable for the number when none was given', async () => {
    const call = await inboundCallTo('+15550100');
    expect(call.direction).toBe('inbound');
    expect(call.phone_number_sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(call.phone_number_sid).toBe(numberSid('+15550100'));
    expect((await inboundCallTo('+15550100')).phone_number_sid).toBe(call.phone_number_sid);
    expect((await inboundCallTo('+15550199')).phone_number_sid).not.toBe(call.phone_number_sid);
  });

  it('is the sid the number was routed with', async () => {
    const sid = `PN${'1'.repeat(32)}`;
    expect((await inboundCallTo('+15550100', { sid })).phone_number_sid).toBe(sid);
  });
});
