import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE, harness, rcml } from '../harness.js';

/** Reference model: two FIFO lines, the bridged pairs, the calls that ended. */
interface Model {
  agents: string[];
  customers: Array<{ sid: string; since: number }>;
  partner: Map<string, string>;
  rejoin: Map<string, boolean>;
  ended: Set<string>;
  now: number;
}

const TIMEOUT = 30;
const ENDED = new Set(['completed', 'canceled', 'no-answer', 'busy', 'failed']);

type Real = { h: ReturnType<typeof harness>; active: Set<string>; n: number };

function pair(m: Model, agent: string, customer: string): void {
  m.partner.set(agent, customer);
  m.partner.set(customer, agent);
}

/** A customer (or an agent) arrives: takes the head of the other line, or waits at its own tail. */
function arriveCustomer(m: Model, sid: string): void {
  const agent = m.agents.shift();
  if (agent) pair(m, agent, sid);
  else m.customers.push({ sid, since: m.now });
}
function arriveAgent(m: Model, sid: string): void {
  const customer = m.customers.shift();
  if (customer) pair(m, sid, customer.sid);
  else m.agents.push(sid);
}

async function check(m: Model, r: Real): Promise<void> {
  await r.h.engine.advance(0);
  const q = await r.h.engine.getQueue('q');
  expect(q?.enqueued.members.map((x) => x.callSid) ?? []).toEqual(m.agents);
  expect(q?.dialer.members.map((x) => x.callSid) ?? []).toEqual(m.customers.map((c) => c.sid));
  for (const side of [q?.enqueued, q?.dialer]) {
    expect(side?.members.map((x) => x.position) ?? []).toEqual((side?.members ?? []).map((_, i) => i + 1));
  }
  const bridged = new Set([...m.partner.keys()]);
  expect(new Set(r.active)).toEqual(bridged);
  for (const sid of m.ended) expect(ENDED.has(r.h.engine.getCall(sid)?.status ?? '')).toBe(true);
  for (const sid of [...m.agents, ...m.customers.map((c) => c.sid), ...bridged]) {
    expect(r.h.engine.getCall(sid)?.status).toBe('in-progress');
  }
}

class AgentArrives implements fc.AsyncCommand<Model, Real> {
  constructor(readonly rejoin: boolean) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const sid = r.h.engine.incomingCall(`+1600${++r.n}`, this.rejoin ? '+1900' : '+1901').sid;
    m.rejoin.set(sid, this.rejoin);
    arriveAgent(m, sid);
    await check(m, r);
  }
  toString = () => `agent(rejoin=${this.rejoin})`;
}

class CustomerArrives implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    arriveCustomer(m, r.h.engine.incomingCall(`+1700${++r.n}`, '+1902').sid);
    await check(m, r);
  }
  toString = () => 'customer';
}

class HangUp implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const calls = live(m);
    const sid = calls[this.pick % calls.length];
    r.h.engine.hangupParty(sid);
    m.ended.add(sid);
    m.agents = m.agents.filter((a) => a !== sid);
    m.customers = m.customers.filter((c) => c.sid !== sid);
    const partner = m.partner.get(sid);
    if (partner) {
      m.partner.delete(sid);
      m.partner.delete(partner);
      if (m.rejoin.has(partner)) {
        // SPEC rejoin table for the agent whose customer hung up.
        if (m.customers.length > 0) arriveAgent(m, partner);
        else if (m.rejoin.get(partner)) m.agents.push(partner);
        else m.ended.add(partner);
      } else m.ended.add(partner); // the customer's Dial ends; its app has nothing more
    }
    await check(m, r);
  }
  toString = () => `hangup(${this.pick})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.now += this.seconds;
    for (const c of m.customers) if (m.now - c.since >= TIMEOUT) m.ended.add(c.sid);
    m.customers = m.customers.filter((c) => m.now - c.since < TIMEOUT);
    await r.h.engine.advance(this.seconds);
    await check(m, r);
  }
  toString = () => `advance(${this.seconds})`;
}

function live(m: Readonly<Model>): string[] {
  return [...m.agents, ...m.customers.map((c) => c.sid), ...m.partner.keys()].sort();
}

const commands = [
  fc.boolean().map((b) => new AgentArrives(b)),
  fc.constant(new CustomerArrives()),
  fc.nat(50).map((i) => new HangUp(i)),
  fc.integer({ min: 1, max: 20 }).map((s) => new Advance(s)),
];

describe('queues in the engine (model-based)', () => {
  it('FIFO on both sides, one bridge per call, no call lost, positions 1..n, rejoin per SPEC', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { size: '+1' }), async (cmds) => {
        const h = harness({
          '/agent-rejoin': rcml('<Enqueue rejoin="true">q</Enqueue>'),
          '/agent': rcml('<Enqueue>q</Enqueue>'),
          '/customer': rcml(`<Dial timeout="${TIMEOUT}"><Queue>q</Queue></Dial>`),
        });
        h.engine.setNumber('+1900', { voiceUrl: `${BASE}/agent-rejoin` });
        h.engine.setNumber('+1901', { voiceUrl: `${BASE}/agent` });
        h.engine.setNumber('+1902', { voiceUrl: `${BASE}/customer` });
        const active = new Set<string>();
        h.events.push = (e) => {
          if (e.type === 'queue' && e.event.type === 'bridge') {
            for (const sid of [e.event.callSid, e.event.partnerCallSid]) {
              if (active.has(sid)) throw new Error(`${sid} bridged twice at once`);
              active.add(sid);
            }
          }
          if (e.type === 'queue' && e.event.type === 'bridge-end') {
            active.delete(e.event.callSid);
            active.delete(e.event.partnerCallSid);
          }
          return 0;
        };
        const model: Model = {
          agents: [],
          customers: [],
          partner: new Map(),
          rejoin: new Map(),
          ended: new Set(),
          now: 0,
        };
        await fc.asyncModelRun(() => ({ model, real: { h, active, n: 0 } }), cmds);
        await h.engine.close();
      }),
      { numRuns: process.env.RCML_DEEP ? 500 : 40 },
    );
  });
});
