import { afterEach, describe, expect, it } from 'vitest';
import type { EngineQueueEvent } from '../../src/engine/queues/events.js';
import { BASE, type Harness, rcml } from '../engine/harness.js';
import { REDIS_URL } from '../support/services.js';
import { type PeerCluster, peerCluster } from './peer-engines.js';

const AGENT_NUMBER = '+15550000001';
const CUSTOMER_NUMBER = '+15550000002';
const AFTER = rcml('<Say>after</Say>');

let cluster: PeerCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const paramsOf = (h: Harness, path: string) =>
  h.requests.filter((r) => r.url.startsWith(BASE + path)).map((r) => r.params);
const queueEvents = (h: Harness): EngineQueueEvent[] =>
  h.events.flatMap((e) => (e.type === 'queue' ? [e.event] : []));

/** Node 1 serves customers (Enqueue), node 2 agents (Dial with a Queue noun). */
async function customerAndAgentNodes(): Promise<PeerCluster> {
  cluster = await peerCluster([
    {
      '/customer': rcml('<Enqueue joinUrl="/cust-join" action="/enq-after">support</Enqueue>'),
      '/cust-join': rcml('<Say>an agent is coming</Say>'),
      '/whisper': rcml('<Pause length="2"/>'),
      '/enq-after': AFTER,
    },
    {
      '/agent': rcml(
        '<Dial action="/dialed" timeout="600"><Queue joinUrl="/agent-join" url="/whisper">support</Queue></Dial>',
      ),
      '/agent-join': rcml('<Play>http://app.test/beep.wav</Play>'),
      '/dialed': AFTER,
    },
  ]);
  const [one, two] = cluster.nodes;
  one.h.engine.setNumber(CUSTOMER_NUMBER, { voiceUrl: `${BASE}/customer` });
  two.h.engine.setNumber(AGENT_NUMBER, { voiceUrl: `${BASE}/agent` });
  return cluster;
}

describe.skipIf(!REDIS_URL)('a queue match across two nodes', () => {
  it('runs both join documents, connects the calls and ends both legs when the customer hangs up', async () => {
    const c = await customerAndAgentNodes();
    const [one, two] = c.nodes;
    const agent = two.h.engine.incomingCall('+16660000001', AGENT_NUMBER).sid;
    await c.tick(12);
    const customer = one.h.engine.incomingCall('+17770000001', CUSTOMER_NUMBER).sid;
    for (let i = 0; i < 10; i++) await c.tick(1);

    // Each node ran its side's documents as on one node: the customer's joinUrl, then the
    // agent's Queue url on the customer; the agent's joinUrl on the agent.
    expect(paramsOf(one.h, '/cust-join')).toEqual([
      expect.objectContaining({ CallSid: customer, QueuePosition: '1', QueueTime: '0' }),
    ]);
    expect(paramsOf(one.h, '/whisper')).toEqual([expect.objectContaining({ CallSid: customer })]);
    expect(paramsOf(two.h, '/agent-join')).toEqual([
      expect.objectContaining({ CallSid: agent, QueuePosition: '1', QueueTime: '12' }),
    ]);
    for (const [h, mine, partner] of [
      [one.h, customer, agent],
      [two.h, agent, customer],
    ] as const) {
      const events = queueEvents(h);
      expect(events.filter((e) => e.type === 'bridge')).toEqual([
        expect.objectContaining({ callSid: customer, partnerCallSid: agent }),
      ]);
      expect(
        events.some((e) => e.type === 'join' && e.callSid === mine && e.partnerCallSid === partner),
      ).toBe(true);
      expect(h.engine.getCall(mine)?.status).toBe('in-progress');
    }

    one.h.engine.hangupParty(customer);
    await c.tick(1);
    await c.tick(1);
    expect(paramsOf(one.h, '/enq-after')).toEqual([
      expect.objectContaining({ CallSid: customer, QueueResult: 'bridged', QueueTime: '0' }),
    ]);
    expect(paramsOf(two.h, '/dialed')).toEqual([
      expect.objectContaining({ CallSid: agent, DialCallStatus: 'completed', DialCallSid: customer }),
    ]);
    await c.tick(5);
    expect(one.h.engine.getCall(customer)?.status).toBe('completed');
    expect(two.h.engine.getCall(agent)?.status).toBe('completed');
    for (const h of [one.h, two.h]) {
      expect(queueEvents(h).filter((e) => e.type === 'bridge-end')).toEqual([
        expect.objectContaining({ endedBy: 'enqueued', bridged: true }),
      ]);
    }
  });

  it('carries the time limit, a live redirect and the rejoin rule from one node to the other', async () => {
    cluster = await peerCluster([
      {
        '/customer': rcml(
          '<Dial action="/dialed" timeLimit="20"><Queue url="/whisper">support</Queue></Dial>',
        ),
        '/dialed': AFTER,
        '/moved': rcml('<Say>moved</Say>'),
      },
      {
        '/agent': rcml('<Enqueue rejoin="true" waitUrl="/wait" action="/enq-after">support</Enqueue>'),
        '/wait': rcml('<Pause length="5"/>'),
        '/whisper': rcml('<Say>a customer</Say>'),
        '/enq-after': AFTER,
      },
    ]);
    const c = cluster;
    const [one, two] = c.nodes;
    one.h.engine.setNumber(CUSTOMER_NUMBER, { voiceUrl: `${BASE}/customer` });
    two.h.engine.setNumber(AGENT_NUMBER, { voiceUrl: `${BASE}/agent` });
    const agent = two.h.engine.incomingCall('+16660000001', AGENT_NUMBER).sid;
    await c.tick(3);
    const first = one.h.engine.incomingCall('+17770000001', CUSTOMER_NUMBER).sid;
    for (let i = 0; i < 25; i++) await c.tick(1);
    // The Queue noun's url ran on the agent, on the agent's node.
    expect(paramsOf(two.h, '/whisper')).toEqual([expect.objectContaining({ CallSid: agent })]);
    // The customer's timeLimit ran out on its node: its Dial reports the bridge, the agent rejoins.
    expect(paramsOf(one.h, '/dialed')).toEqual([
      expect.objectContaining({ CallSid: first, DialCallStatus: 'completed', DialCallSid: agent }),
    ]);
    expect(queueEvents(two.h).filter((e) => e.type === 'bridge-end')).toEqual([
      expect.objectContaining({ endedBy: 'time-limit', bridged: true }),
    ]);
    expect(queueEvents(two.h).some((e) => e.type === 'rejoin' && e.callSid === agent)).toBe(true);
    expect((await two.h.engine.getQueue('support'))?.enqueued.members.map((m) => m.callSid)).toEqual([agent]);
    expect(paramsOf(two.h, '/enq-after')).toEqual([]);

    const second = one.h.engine.incomingCall('+17770000002', CUSTOMER_NUMBER).sid;
    for (let i = 0; i < 3; i++) await c.tick(1);
    expect(
      queueEvents(two.h)
        .filter((e) => e.type === 'bridge')
        .map((e) => 'partnerCallSid' in e && e.partnerCallSid),
    ).toEqual([first, second]);
    // A live redirect of the customer takes it out of the bridge: the agent rejoins again.
    one.h.engine.modifyCall(second, { Url: `${BASE}/moved` });
    for (let i = 0; i < 3; i++) await c.tick(1);
    expect(one.h.verbs(second)).toEqual(['Dial', 'Say']);
    expect(
      queueEvents(two.h)
        .filter((e) => e.type === 'bridge-end')
        .map((e) => 'endedBy' in e && e.endedBy),
    ).toEqual(['time-limit', 'dialer']);
    expect(queueEvents(two.h).filter((e) => e.type === 'rejoin')).toHaveLength(2);
    expect(two.h.engine.getCall(agent)?.status).toBe('in-progress');
    two.h.engine.hangupParty(agent);
    await c.tick(1);
    expect(paramsOf(two.h, '/enq-after')).toEqual([
      expect.objectContaining({ CallSid: agent, QueueResult: 'hangup' }),
    ]);
  });

  it('ends a bridge whose other node died: the local leg sees its partner leave', async () => {
    const c = await customerAndAgentNodes();
    const [one, two] = c.nodes;
    const agent = two.h.engine.incomingCall('+16660000001', AGENT_NUMBER).sid;
    await c.tick(1);
    const customer = one.h.engine.incomingCall('+17770000001', CUSTOMER_NUMBER).sid;
    for (let i = 0; i < 10; i++) await c.tick(1);
    expect(queueEvents(one.h).filter((e) => e.type === 'bridge')).toHaveLength(1);
    // Node 2 stops answering; the survivors learn it is dead.
    await two.peers.close();
    one.peers.endBridgesWith(two.id);
    await c.tick(1);
    expect(queueEvents(one.h).filter((e) => e.type === 'bridge-end')).toEqual([
      expect.objectContaining({ endedBy: 'dialer', bridged: true }),
    ]);
    // Enqueue's rejoin rule with no one else waiting and rejoin off: the customer is dropped.
    expect(paramsOf(one.h, '/enq-after')).toEqual([
      expect.objectContaining({ CallSid: customer, QueueResult: 'bridged' }),
    ]);
    expect(one.h.engine.getCall(customer)?.status).toBe('completed');
    expect(two.h.engine.getCall(agent)?.status).toBe('in-progress');
  });
});
