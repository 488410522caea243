import { afterEach, describe, expect, it } from 'vitest';
import { webhookSignature } from '../../../src/engine/signature.js';
import { writeWav } from '../../../src/engine/wav.js';
import { ACCOUNT_A, ACCOUNT_B, signingKeyOf } from '../../store/fixtures.js';
import { AUTH_B, BASE } from '../harness.js';
import { callQueueServer, xml } from './harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

const CUSTOMER_NUMBER = '+15550100';
const AGENT_NUMBER = '+15550200';

/** A server with a customer number (Dial+Queue) and an agent number (Enqueue rejoin) provisioned. */
async function product() {
  const s = await callQueueServer();
  opened.push(s);
  s.serve('http://app.test/customer', () =>
    xml('<Dial timeout="300"><Queue waitUrl="http://app.test/wait">support</Queue></Dial>'),
  );
  s.serve('http://app.test/agent', () =>
    xml('<Enqueue waitUrl="http://app.test/hold" rejoin="true">support</Enqueue>'),
  );
  s.serve('http://app.test/wait', (req) =>
    xml(`<Say>You are number ${req.params.QueuePosition}</Say><Play>http://app.test/music</Play>`),
  );
  s.serve('http://app.test/hold', () => xml('<Play>http://app.test/music</Play>'));
  s.serve('http://app.test/music', () => ({ status: 200, contentType: 'audio/wav', body: writeWav(5) }));
  const customer = await s.json('/callqueue/provisioning', {
    body: { applicationUrl: 'http://app.test/customer', phoneNumber: CUSTOMER_NUMBER },
  });
  const agent = await s.json('/callqueue/provisioning', {
    body: { applicationUrl: 'http://app.test/agent', phoneNumber: AGENT_NUMBER },
  });
  expect([customer.status, agent.status]).toEqual([200, 200]);
  return { s, customerSid: customer.body.sid as string, agentSid: agent.body.sid as string };
}

/** Posts a status callback signed with `key` (default: the posted account's signing key). */
async function signedPost(
  s: Awaited<ReturnType<typeof callQueueServer>>,
  fields: Record<string, string>,
  key: string | null = signingKeyOf(fields.AccountSid ?? ''),
) {
  const url = `${BASE}/callqueue/callback`;
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (key !== null) headers['X-Twilio-Signature'] = webhookSignature(key, url, fields);
  const res = await s.app.fetch(
    new Request(url, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('Call Queuing: calls to provisioned numbers', () => {
  it('runs the voiceUrl with its internal parameters and owns the call by the number', async () => {
    const { s, customerSid } = await product();
    const seen: Array<Record<string, string>> = [];
    s.serve('http://app.test/customer', (req) => {
      seen.push({ url: req.url, ...req.params });
      return xml('<Hangup/>');
    });
    // Placed by B's simulation, the call still belongs to A, who provisioned the number.
    const call = await s.form('/sim/Calls', { From: '+15551111', To: CUSTOMER_NUMBER }, AUTH_B);
    expect(call.status).toBe(200);
    await s.engine.runUntilIdle();
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0].url).searchParams.get('CallQueueNumberSid')).toBe(customerSid);
    expect(seen[0]).toMatchObject({ AccountSid: ACCOUNT_A, To: CUSTOMER_NUMBER, From: '+15551111' });
    expect((await s.store.calls.get(ACCOUNT_A, call.body.sid))?.phoneNumberSid).toBe(customerSid);
  });

  it('the callback endpoint records every status event against number and call', async () => {
    const { s, customerSid, agentSid } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(5);
    const a1 = s.engine.incomingCall('+15552001', AGENT_NUMBER);
    await s.engine.advance(5);
    s.engine.hangupParty(c1.sid);
    await s.engine.advance(5);
    s.engine.hangupParty(a1.sid);
    await s.engine.runUntilIdle();

    expect(s.callbacks.every((c) => c.status === 204)).toBe(true);
    const statuses = (sid: string) =>
      s.callbacks.filter((c) => c.params.CallSid === sid).map((c) => c.params.CallStatus);
    expect(statuses(c1.sid)).toEqual(['ringing', 'in-progress', 'completed']);
    expect(statuses(a1.sid)).toEqual(['ringing', 'in-progress', 'completed']);

    const customerCalls = await s.json(`/callqueue/numbers/${customerSid}/calls`);
    expect(customerCalls.body.totals).toEqual({
      calls: 1,
      answered: 1,
      queued: 1,
      bridged: 1,
      abandoned: 0,
      ended: 1,
    });
    expect(customerCalls.body.calls[0]).toMatchObject({
      callSid: c1.sid,
      status: 'completed',
      side: 'dialer',
      queueName: 'support',
      partners: [a1.sid],
      callbacks: 3,
    });
    const events = (await s.json(`/callqueue/numbers/${agentSid}/events?CallSid=${a1.sid}`)).body
      .events as Array<{
      type: string;
      status?: string;
    }>;
    // Callbacks arrive over HTTP, queue steps in process: each kind in its own order.
    expect(events.filter((e) => e.type === 'status').map((e) => e.status)).toEqual([
      'ringing',
      'in-progress',
      'completed',
    ]);
    expect(events.filter((e) => e.type !== 'status').map((e) => e.type)).toEqual([
      'match',
      // c1 hung up, nobody waits: rejoin=true puts the agent back.
      'rejoin',
      'enqueue',
      'leave',
    ]);
    // B sees nothing of A's numbers.
    expect((await s.json(`/callqueue/numbers/${customerSid}/calls`, { auth: AUTH_B })).status).toBe(404);
  });

  it('counts a customer who hangs up while waiting as abandoned', async () => {
    const { s, customerSid } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(20);
    s.engine.hangupParty(c1.sid);
    await s.engine.runUntilIdle();
    const calls = await s.json(`/callqueue/numbers/${customerSid}/calls`);
    expect(calls.body.totals).toMatchObject({
      calls: 1,
      answered: 1,
      queued: 1,
      bridged: 0,
      abandoned: 1,
      ended: 1,
    });
  });

  it("never trusts the posted AccountSid: only the number's owner, for its own call to it", async () => {
    const { s } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    const post = (fields: Record<string, string>) => signedPost(s, fields);
    const genuine = {
      CallSid: c1.sid,
      AccountSid: ACCOUNT_A,
      To: CUSTOMER_NUMBER,
      CallStatus: 'in-progress',
    };
    const before = (await s.json('/callqueue/numbers')).body.numbers;
    expect(before).toHaveLength(2);

    const forged = await post({ ...genuine, AccountSid: ACCOUNT_B });
    expect(forged.status).toBe(403);
    expect(JSON.stringify(forged.body)).not.toContain(ACCOUNT_A);
    expect((await post({ ...genuine, To: '+15559999999' })).status).toBe(403);
    expect((await post({ ...genuine, CallSid: `CA${'0'.repeat(32)}` })).status).toBe(403);
    // A real call of the account, but to the other number.
    expect((await post({ ...genuine, To: AGENT_NUMBER })).status).toBe(403);
    for (const missing of ['CallSid', 'AccountSid', 'To', 'CallStatus']) {
      const fields: Record<string, string> = { ...genuine };
      delete fields[missing];
      const res = await post(fields);
      expect(res.status).toBe(400);
      expect(res.body.parameter).toBe(missing);
    }
    // The genuine one is recorded (no credentials: the platform signs it with the account's key).
    expect((await post(genuine)).status).toBe(204);
    const customerSid = before[0].sid;
    const events = await s.json(`/callqueue/numbers/${customerSid}/events?CallSid=${c1.sid}`);
    const posted = events.body.events.filter((e: { type: string }) => e.type === 'status');
    // ringing and in-progress from the engine, then ours.
    expect(posted.map((e: { status: string }) => e.status)).toEqual([
      'ringing',
      'in-progress',
      'in-progress',
    ]);
  });
});

describe('Call Queuing: the callback reads only what the engine signed', () => {
  it('refuses an unsigned callback, or one signed with another key, and records nothing', async () => {
    const { s, customerSid } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    const genuine = { CallSid: c1.sid, AccountSid: ACCOUNT_A, To: CUSTOMER_NUMBER, CallStatus: 'completed' };
    const events = async () =>
      (await s.json(`/callqueue/numbers/${customerSid}/events?CallSid=${c1.sid}`)).body.events.length;
    const before = await events();
    for (const key of [null, signingKeyOf(ACCOUNT_B), 'guess']) {
      const refused = await signedPost(s, genuine, key);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 20403, kind: 'invalid-signature' });
    }
    // Signed for other fields than those sent.
    const url = `${BASE}/callqueue/callback`;
    const tampered = await s.app.fetch(
      new Request(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': webhookSignature(signingKeyOf(ACCOUNT_A), url, genuine),
        },
        body: new URLSearchParams({ ...genuine, CallDuration: '99999' }).toString(),
      }),
    );
    expect(tampered.status).toBe(403);
    expect(await events()).toBe(before);
    expect((await signedPost(s, genuine)).status).toBe(204);
    expect(await events()).toBe(before + 1);
  });

  it('accepts only known statuses and plain whole numbers, naming the field', async () => {
    const { s } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    const genuine = { CallSid: c1.sid, AccountSid: ACCOUNT_A, To: CUSTOMER_NUMBER, CallStatus: 'completed' };
    for (const [field, value] of [
      ['CallStatus', 'pwned<script>'],
      ['SequenceNumber', '-1'],
      ['SequenceNumber', '1e9'],
      ['CallDuration', '-5'],
      ['CallDuration', '99999999999'],
      ['Timestamp', 'yesterday-ish'],
    ] as const) {
      const res = await signedPost(s, { ...genuine, [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.parameter).toBe(field);
    }
    expect((await signedPost(s, { ...genuine, SequenceNumber: '3', CallDuration: '40' })).status).toBe(204);
  });

  it('records at most 20 status callbacks per call, then answers 429', async () => {
    const { s, customerSid } = await product();
    const c1 = s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    const genuine = {
      CallSid: c1.sid,
      AccountSid: ACCOUNT_A,
      To: CUSTOMER_NUMBER,
      CallStatus: 'in-progress',
    };
    let accepted = 0;
    let last = 0;
    for (let i = 0; i < 25; i++) {
      last = (await signedPost(s, genuine)).status;
      if (last === 204) accepted++;
    }
    expect(last).toBe(429);
    const recorded = (await s.json(`/callqueue/numbers/${customerSid}/events?CallSid=${c1.sid}`)).body.events;
    expect(recorded.filter((e: { type: string }) => e.type === 'status')).toHaveLength(20);
    expect(accepted).toBeLessThan(20);
  });
});

describe('Call Queuing: queue state', () => {
  it('shows sizes per side, members in order with position and wait, served counts and averages', async () => {
    const { s } = await product();
    expect((await s.json('/callqueue/queues')).body.queues).toEqual([]);
    const customers = [];
    for (const from of ['+15551001', '+15551002', '+15551003']) {
      customers.push(s.engine.incomingCall(from, CUSTOMER_NUMBER));
      await s.engine.advance(10);
    }
    let list = await s.json('/callqueue/queues');
    expect(list.body.queues).toHaveLength(1);
    let q = list.body.queues[0];
    expect(q).toMatchObject({
      name: 'support',
      accountSid: ACCOUNT_A,
      maxSize: 100,
      size: 3,
      servedCount: 0,
      averageWaitMs: 0,
      customerNumbers: [CUSTOMER_NUMBER],
      agentNumbers: [],
      agents: { size: 0, members: [] },
    });
    expect(q.sid).toMatch(/^QU[0-9a-f]{32}$/);
    expect(q.customers.members).toEqual([
      expect.objectContaining({ callSid: customers[0].sid, position: 1, waitMs: 30_000, from: '+15551001' }),
      expect.objectContaining({ callSid: customers[1].sid, position: 2, waitMs: 20_000 }),
      expect.objectContaining({ callSid: customers[2].sid, position: 3, waitMs: 10_000 }),
    ]);

    s.engine.incomingCall('+15552001', AGENT_NUMBER);
    await s.engine.advance(1);
    q = (await s.json(`/callqueue/queues/${q.sid}`)).body;
    expect(q.customers.size).toBe(2);
    expect(q.customers.members.map((m: { position: number }) => m.position)).toEqual([1, 2]);
    expect(q.customers.members[0].callSid).toBe(customers[1].sid);
    expect(q.customers.servedCount).toBe(1);
    expect(q.customers.averageWaitMs).toBe(30_000);
    expect(q.agentNumbers).toEqual([AGENT_NUMBER]);
    expect((await s.json('/callqueue/queues?Name=support')).body.queues).toHaveLength(1);
    expect((await s.json('/callqueue/queues?Name=other')).body.queues).toHaveLength(0);

    // Another account sees neither the queue nor its state.
    expect((await s.json('/callqueue/queues', { auth: AUTH_B })).body.queues).toEqual([]);
    expect((await s.json(`/callqueue/queues/${q.sid}`, { auth: AUTH_B })).status).toBe(404);
    list = await s.json(`/callqueue/queues/QU${'0'.repeat(32)}`);
    expect(list.status).toBe(404);
  });

  it('changes the size limit within 1..5000 and refuses anything else naming maxSize', async () => {
    const { s } = await product();
    s.engine.incomingCall('+15551001', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    const sid = (await s.json('/callqueue/queues')).body.queues[0].sid;
    for (const bad of [0, 5001, 2.5, '10', null]) {
      const res = await s.json(`/callqueue/queues/${sid}`, { body: { maxSize: bad } });
      expect(res.status).toBe(400);
      expect(res.body.parameter).toBe('maxSize');
    }
    expect((await s.json(`/callqueue/queues/${sid}`, { body: {} })).body.parameter).toBe('maxSize');
    expect(
      (await s.json(`/callqueue/queues/${sid}`, { body: { maxSize: 5, name: 'x' } })).body.parameter,
    ).toBe('name');
    expect((await s.json(`/callqueue/queues/${sid}`, { body: { maxSize: 1 }, auth: AUTH_B })).status).toBe(
      404,
    );
    const changed = await s.json(`/callqueue/queues/${sid}`, { body: { maxSize: 1 } });
    expect(changed.status).toBe(200);
    expect(changed.body.maxSize).toBe(1);
    // A second customer cannot wait now: its Dial ends at once.
    const c2 = s.engine.incomingCall('+15551002', CUSTOMER_NUMBER);
    await s.engine.advance(1);
    expect((await s.json(`/callqueue/queues/${sid}`)).body.customers.size).toBe(1);
    expect(c2.status).toBe('completed');
    expect((await s.json(`/callqueue/queues/${sid}`, { body: { maxSize: 5000 } })).body.maxSize).toBe(5000);
  });
});
