import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type EngineServer, startEngineServer } from '../../src/api/engine-server.js';
import { writeWav } from '../../src/engine/wav.js';
import { openSqliteCallQueueStore } from '../../src/store/callqueue/sqlite.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const CUSTOMER_NUMBER = '+15551000';
const AGENT_NUMBER = '+15552000';
const [C1, C2, C3, C4] = ['+15550001', '+15550002', '+15550003', '+15550004'];
const [A1, A2] = ['+15559001', '+15559002'];

function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(body))));
  });
}

/**
 * The customer's RCML application: customers Dial the queue `support` (the one from C3 gives up
 * after 30 s), hearing their position each wait round; agents Enqueue, A1 with rejoin and A2
 * without. It notes what it was asked.
 */
async function startQueueApp() {
  const positions = new Map<string, string[]>();
  const dialStatus = new Map<string, string>();
  const holds: string[] = [];
  const server = createServer(async (req, res) => {
    const p = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let doc = '';
    if (path === '/customer') {
      const timeout = p.From === C3 ? 30 : 300;
      doc = `<Dial timeout="${timeout}" action="/customer-done"><Queue waitUrl="/wait">support</Queue></Dial>`;
    } else if (path === '/wait') {
      positions.set(p.CallSid, [...(positions.get(p.CallSid) ?? []), p.QueuePosition]);
      doc = `<Say>You are caller number ${p.QueuePosition}</Say><Play>/music.wav</Play>`;
    } else if (path === '/customer-done') {
      dialStatus.set(p.CallSid, p.DialCallStatus);
      doc = '<Hangup/>';
    } else if (path === '/agent') {
      doc = `<Enqueue waitUrl="/hold" rejoin="${p.From === A1}">support</Enqueue>`;
    } else if (path === '/hold') {
      holds.push(p.CallSid);
      doc = '<Play>/music.wav</Play>';
    } else if (path === '/music.wav') {
      res.writeHead(200, { 'Content-Type': 'audio/wav' });
      res.end(Buffer.from(writeWav(5)));
      return;
    } else {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    res.end(`<Response>${doc}</Response>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, positions, dialStatus, holds };
}

async function startPlatform(dataDir: string): Promise<EngineServer> {
  const store = createMemoryStore();
  await store.accounts.put(account(ACCOUNT_A));
  const server = await startEngineServer({
    store,
    clock: 'virtual',
    seed: 11,
    epoch: Date.UTC(2024, 2, 5, 12),
    callQueueStore: openSqliteCallQueueStore({ dir: dataDir }),
  });
  cleanups.push(() => server.close());
  return server;
}

function client(server: EngineServer) {
  const auth = `Basic ${Buffer.from(`${ACCOUNT_A}:${tokenOf(ACCOUNT_A)}`).toString('base64')}`;
  const send = async (path: string, method: string, body?: string, type?: string) => {
    const headers: Record<string, string> = { Authorization: auth };
    if (type) headers['Content-Type'] = type;
    const res = await fetch(server.url + path, { method, headers, body });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: reads arbitrary JSON
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
  return {
    get: (path: string) => send(path, 'GET'),
    json: (path: string, body: unknown) => send(path, 'POST', JSON.stringify(body), 'application/json'),
    form: (path: string, fields: Record<string, string>) =>
      send(path, 'POST', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded'),
  };
}

describe('Call Queuing end to end over HTTP', () => {
  it('serves customers first in first out, with rejoin, drop, timeout, callbacks and queue state', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-cq-e2e-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const app = await startQueueApp();
    const server = await startPlatform(data);
    const api = client(server);

    const customer = await api.json('/callqueue/provisioning', {
      applicationUrl: `${app.url}/customer`,
      phoneNumber: CUSTOMER_NUMBER,
    });
    const agent = await api.json('/callqueue/provisioning', {
      applicationUrl: `${app.url}/agent`,
      phoneNumber: AGENT_NUMBER,
    });
    expect([customer.status, agent.status]).toEqual([200, 200]);
    expect(customer.body.statusCallback).toBe(`${server.baseUrl}/callqueue/callback`);
    for (const [from, hangupAfter] of [
      [C1, 40],
      [C2, 49],
      [C4, 10],
    ] as const) {
      expect((await api.json('/sim/Parties', { address: from, hangupAfter })).status).toBe(200);
    }

    const sids = new Map<string, string>();
    const call = async (from: string, to: string) => {
      const res = await api.form('/sim/Calls', { From: from, To: to });
      expect(res.status).toBe(200);
      sids.set(from, res.body.sid);
    };
    const advance = async (seconds: number) =>
      expect((await api.form('/sim/Advance', { Seconds: String(seconds) })).status).toBe(200);
    const queue = async () => {
      const { queues } = (await api.get('/callqueue/queues')).body;
      expect(queues).toHaveLength(1);
      return queues[0];
    };
    const sizes = async () => {
      const q = await queue();
      return [q.customers.size, q.agents.size];
    };

    // t=0..2: three customers call in and wait, in order.
    await call(C1, CUSTOMER_NUMBER);
    await advance(1);
    await call(C2, CUSTOMER_NUMBER);
    await advance(1);
    await call(C3, CUSTOMER_NUMBER);
    await advance(1);
    let q = await queue();
    expect(q.customers.members.map((m: { callSid: string }) => m.callSid)).toEqual(
      [C1, C2, C3].map((c) => sids.get(c)),
    );
    expect(q.customers.members.map((m: { position: number }) => m.position)).toEqual([1, 2, 3]);
    expect(q.customers.members.map((m: { waitMs: number }) => m.waitMs)).toEqual([3000, 2000, 1000]);
    expect(await sizes()).toEqual([3, 0]);

    // t=10: A1 (rejoin) takes the first customer; t=20: A2 (no rejoin) the second.
    await advance(7);
    await call(A1, AGENT_NUMBER);
    await advance(1);
    expect(await sizes()).toEqual([2, 0]);
    await advance(9);
    await call(A2, AGENT_NUMBER);
    await advance(1);
    q = await queue();
    expect([q.customers.size, q.agents.size, q.customers.servedCount]).toEqual([1, 0, 2]);
    expect(q.customers.averageWaitMs).toBe((10_000 + 19_000) / 2);
    expect(q.customerNumbers).toEqual([CUSTOMER_NUMBER]);
    expect(q.agentNumbers).toEqual([AGENT_NUMBER]);

    // t=32: C3's Dial timeout ends its wait: no-answer.
    await advance(15);
    expect(await sizes()).toEqual([0, 0]);
    expect(app.dialStatus.get(sids.get(C3) as string)).toBe('no-answer');
    // Positions announced to C3 went 3, 2, 1.
    const heard = (app.positions.get(sids.get(C3) as string) ?? []).filter((p, i, all) => p !== all[i - 1]);
    expect(heard).toEqual(['3', '2', '1']);

    // t=40: C1 hangs up, nobody waits: A1 (rejoin=true) waits again and hears hold audio.
    await advance(6);
    expect(await sizes()).toEqual([0, 1]);
    expect(app.holds).toContain(sids.get(A1));
    // t=50: C2 hangs up: A2 (rejoin=false) is dropped.
    await advance(10);
    expect(await sizes()).toEqual([0, 1]);
    expect(
      (await api.get(`/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls/${sids.get(A2)}.json`)).body.status,
    ).toBe('completed');

    // t=52: the next customer goes straight to A1; t=62 it hangs up and A1 holds again.
    await call(C4, CUSTOMER_NUMBER);
    await advance(1);
    expect(await sizes()).toEqual([0, 0]);
    await advance(12);
    q = await queue();
    expect([q.customers.size, q.agents.size]).toEqual([0, 1]);
    expect(q.agents.members[0].callSid).toBe(sids.get(A1));

    // FIFO on both sides, as the callback endpoint and the queue steps recorded it.
    const customerCalls = (await api.get(`/callqueue/numbers/${customer.body.sid}/calls`)).body;
    const byFrom = (from: string) =>
      customerCalls.calls.find((c: { callSid: string }) => c.callSid === sids.get(from));
    expect(byFrom(C1).partners).toEqual([sids.get(A1)]);
    expect(byFrom(C2).partners).toEqual([sids.get(A2)]);
    expect(byFrom(C3)).toMatchObject({ partners: [], abandoned: true, ended: true, status: 'completed' });
    expect(byFrom(C4).partners).toEqual([sids.get(A1)]);
    expect(customerCalls.totals).toEqual({
      calls: 4,
      answered: 4,
      queued: 3,
      bridged: 3,
      abandoned: 1,
      ended: 4,
    });
    const agentCalls = (await api.get(`/callqueue/numbers/${agent.body.sid}/calls`)).body;
    expect(agentCalls.totals).toEqual({
      calls: 2,
      answered: 2,
      queued: 1,
      bridged: 2,
      abandoned: 0,
      ended: 1,
    });

    // Every status event of every call reached the callback endpoint.
    for (const [numberSid, froms] of [
      [customer.body.sid, [C1, C2, C3, C4]],
      [agent.body.sid, [A1, A2]],
    ] as const) {
      const { events } = (await api.get(`/callqueue/numbers/${numberSid}/events`)).body;
      for (const from of froms) {
        const statuses = events
          .filter(
            (e: { callSid: string; type: string }) => e.callSid === sids.get(from) && e.type === 'status',
          )
          .map((e: { status: string }) => e.status);
        expect(statuses).toEqual(
          from === A1 ? ['ringing', 'in-progress'] : ['ringing', 'in-progress', 'completed'],
        );
      }
    }
    const agentEvents = (await api.get(`/callqueue/numbers/${agent.body.sid}/events?CallSid=${sids.get(A2)}`))
      .body;
    expect(agentEvents.events.map((e: { type: string }) => e.type)).toContain('drop');
  });

  it('a server over an existing data directory routes its provisioned numbers again', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-cq-e2e-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const app = await startQueueApp();
    const first = await startPlatform(data);
    const provisioned = await client(first).json('/callqueue/provisioning', {
      applicationUrl: `${app.url}/customer`,
      phoneNumber: CUSTOMER_NUMBER,
    });
    expect(provisioned.status).toBe(200);
    await first.close();

    const second = await startPlatform(data);
    const api = client(second);
    expect((await api.get(`/callqueue/numbers/${provisioned.body.sid}`)).body.voiceUrl).toBe(
      provisioned.body.voiceUrl,
    );
    const placed = await api.form('/sim/Calls', { From: C1, To: CUSTOMER_NUMBER });
    await api.form('/sim/Advance', { Seconds: '1' });
    expect((await api.get('/callqueue/queues')).body.queues[0].customers.members[0].callSid).toBe(
      placed.body.sid,
    );
  });
});
