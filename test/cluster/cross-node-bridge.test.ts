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
});
