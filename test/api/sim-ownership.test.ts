import { afterEach, describe, expect, it } from 'vitest';
import { createEngineApp } from '../../src/api/engine-server.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, ACCOUNT_B, account } from '../store/fixtures.js';
import { callQueueServer } from './callqueue/harness.js';
import { AUTH_A, AUTH_B, BASE } from './harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function server(options: { sharedSimulation?: boolean; clock?: 'real' | 'virtual' } = {}) {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  await store.accounts.put(account(ACCOUNT_B));
  const built = await createEngineApp({
    store,
    baseUrl: BASE,
    clock: options.clock ?? 'virtual',
    seed: 3,
    sharedSimulation: options.sharedSimulation,
    numbers: { '+15550100': { voiceUrl: 'http://a.test/app', accountSid: ACCOUNT_A } },
  });
  opened.push(built);
  const post = async (path: string, fields: Record<string, string>, auth: string) => {
    const json = path === '/Parties';
    const res = await built.app.fetch(
      new Request(`${BASE}/sim${path}`, {
        method: 'POST',
        headers: {
          Authorization: auth,
          'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded',
        },
        body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { ...built, post };
}

describe('POST /sim/Numbers and the owner of a number', () => {
  it("refuses another account's number (409, 20409) and leaves its route alone", async () => {
    const s = await server();
    const res = await s.post('/Numbers', { Number: '+15550100', VoiceUrl: 'http://b.test/steal' }, AUTH_B);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 20409, kind: 'number-unavailable', parameter: 'Number' });
    expect(s.engine.numberConfig('+15550100')).toMatchObject({
      voiceUrl: 'http://a.test/app',
      accountSid: ACCOUNT_A,
    });
    // The owner may still change its own route.
    const own = await s.post('/Numbers', { Number: '+15550100', VoiceUrl: 'http://a.test/v2' }, AUTH_A);
    expect(own.status).toBe(200);
    expect(s.engine.numberConfig('+15550100')?.voiceUrl).toBe('http://a.test/v2');
  });

  it('makes a free number the account that set it, which no other may then take', async () => {
    const s = await server();
    expect(
      (await s.post('/Numbers', { Number: '+15550199', VoiceUrl: 'http://b.test/x' }, AUTH_B)).status,
    ).toBe(200);
    expect(s.engine.numberConfig('+15550199')?.accountSid).toBe(ACCOUNT_B);
    const taken = await s.post('/Numbers', { Number: '+15550199', VoiceUrl: 'http://a.test/x' }, AUTH_A);
    expect(taken.status).toBe(409);
  });

  it('refuses a Call Queuing number provisioned by another account, in every dialled form', async () => {
    const cq = await callQueueServer();
    opened.push(cq);
    const provisioned = await cq.json('/callqueue/provisioning', {
      body: { applicationUrl: 'https://a.test/customer', phoneNumber: '+15551230001' },
    });
    expect(provisioned.status).toBe(200);
    for (const form of ['+15551230001', '15551230001']) {
      const res = await cq.form('/sim/Numbers', { Number: form, VoiceUrl: 'http://b.test/steal' }, AUTH_B);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(20409);
      expect(cq.engine.numberConfig(form)?.voiceUrl).not.toBe('http://b.test/steal');
    }
  });
});

describe('simulation controls every account shares', () => {
  it('are refused with 403 (20403, simulation-off) when the server keeps them off', async () => {
    const s = await server({ sharedSimulation: false });
    const party = await s.post('/Parties', { address: '+15550111', outcome: 'busy' }, AUTH_A);
    expect(party.status).toBe(403);
    expect(party.body).toMatchObject({ code: 20403, kind: 'simulation-off' });
    const advance = await s.post('/Advance', { Seconds: '5' }, AUTH_A);
    expect(advance.status).toBe(403);
    expect(advance.body.kind).toBe('simulation-off');
    // What touches only the account's own calls and numbers stays on.
    expect(
      (await s.post('/Numbers', { Number: '+15550122', VoiceUrl: 'http://a.test/x' }, AUTH_A)).status,
    ).toBe(200);
  });

  it("include a simulated call to another account's number, which never reaches its application", async () => {
    const s = await server({ sharedSimulation: false });
    const before = s.engine.liveCount;
    const injected = await s.post('/Calls', { From: '+15559999', To: '+15550100' }, AUTH_B);
    expect(injected.status).toBe(403);
    expect(injected.body).toMatchObject({ code: 20403, kind: 'simulation-off' });
    expect(s.engine.liveCount).toBe(before);
    // The owner's own simulated call, and calls to numbers no account owns, still go.
    expect((await s.post('/Calls', { From: '+15559999', To: '+15550100' }, AUTH_A)).status).toBe(200);
    expect((await s.post('/Calls', { From: '+15559999', To: '+15550177' }, AUTH_B)).status).toBe(200);
  });

  it('are on by default for the library', async () => {
    const s = await server();
    expect((await s.post('/Parties', { address: '+15550111', outcome: 'busy' }, AUTH_A)).status).toBe(200);
    expect((await s.post('/Advance', { Seconds: '5' }, AUTH_A)).status).toBe(200);
    // A test bench's simulated caller may call any account's number; the call is the owner's.
    const call = await s.post('/Calls', { From: '+15559999', To: '+15550100' }, AUTH_B);
    expect(call.status).toBe(200);
    expect(call.body.account_sid).toBe(ACCOUNT_A);
  });
});
