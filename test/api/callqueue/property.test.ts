import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callQueueServer, xml } from './harness.js';

const CUSTOMER_NUMBER = '+15550100';
const AGENT_NUMBER = '+15550200';
const RUNS = process.env.RCML_DEEP ? 200 : 20;

/** A caller: when it calls, when (if ever) it hangs up, and for agents whether it rejoins. */
interface Caller {
  id: string;
  kind: 'customer' | 'agent';
  arrive: number;
  hangup?: number;
  rejoin: boolean;
}

/**
 * The reference: two FIFO lines and the rejoin rule of SPEC, replayed over the same instants.
 * Every instant is distinct, so the order of events is the order of times.
 */
class Model {
  customers: string[] = [];
  agents: string[] = [];
  partner = new Map<string, string>();
  ended = new Set<string>();
  matches: Array<[customer: string, agent: string]> = [];

  constructor(private readonly callers: Map<string, Caller>) {}

  private pair(customer: string, agent: string) {
    this.partner.set(customer, agent);
    this.partner.set(agent, customer);
    this.matches.push([customer, agent]);
  }

  arrive(c: Caller) {
    const other = c.kind === 'customer' ? this.agents : this.customers;
    const mine = c.kind === 'customer' ? this.customers : this.agents;
    const head = other.shift();
    if (head === undefined) mine.push(c.id);
    else if (c.kind === 'customer') this.pair(c.id, head);
    else this.pair(head, c.id);
  }

  hangup(c: Caller) {
    if (this.ended.has(c.id)) return;
    this.ended.add(c.id);
    const line = c.kind === 'customer' ? this.customers : this.agents;
    const at = line.indexOf(c.id);
    if (at >= 0) {
      line.splice(at, 1);
      return;
    }
    const partner = this.partner.get(c.id);
    if (partner === undefined) return;
    this.partner.delete(c.id);
    this.partner.delete(partner);
    if (c.kind === 'agent') {
      // The customer's Dial ends with the bridge, and so does its document.
      this.ended.add(partner);
      return;
    }
    const next = this.customers.shift();
    if (next !== undefined) this.pair(next, partner);
    else if (this.callers.get(partner)?.rejoin) this.agents.push(partner);
    else this.ended.add(partner);
  }
}

const callersArb = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }))
  .chain(([nc, na]) =>
    fc.record({
      nc: fc.constant(nc),
      na: fc.constant(na),
      // Distinct instants: arrival and hang-up of each caller.
      times: fc.uniqueArray(fc.integer({ min: 1, max: 300 }), {
        minLength: 2 * (nc + na),
        maxLength: 2 * (nc + na),
      }),
      stays: fc.array(fc.boolean(), { minLength: nc + na, maxLength: nc + na }),
      rejoin: fc.array(fc.boolean(), { minLength: na, maxLength: na }),
    }),
  )
  .map(({ nc, na, times, stays, rejoin }) => {
    const callers: Caller[] = [];
    for (let i = 0; i < nc + na; i++) {
      const [a, b] = [times[2 * i], times[2 * i + 1]].sort((x, y) => x - y);
      const agent = i >= nc;
      callers.push({
        id: agent ? `+1555900${i}` : `+1555800${i}`,
        kind: agent ? 'agent' : 'customer',
        arrive: a,
        hangup: stays[i] ? undefined : b,
        rejoin: agent ? rejoin[i - nc] : false,
      });
    }
    return callers;
  });

describe('Call Queuing: arbitrary arrivals and hang-ups through provisioned numbers', () => {
  it('FIFO on both sides, nobody bridged twice at once, every call ended or live as the model says, queue state equal to the model', async () => {
    await fc.assert(
      fc.asyncProperty(callersArb, async (callers) => {
        const s = await callQueueServer();
        try {
          const byId = new Map(callers.map((c) => [c.id, c]));
          s.serve('http://app.test/customer', () =>
            xml('<Dial timeout="3600"><Queue>support</Queue></Dial>'),
          );
          s.serve('http://app.test/agent', (req) =>
            xml(`<Enqueue rejoin="${byId.get(req.params.From)?.rejoin ?? false}">support</Enqueue>`),
          );
          for (const [url, phoneNumber] of [
            ['http://app.test/customer', CUSTOMER_NUMBER],
            ['http://app.test/agent', AGENT_NUMBER],
          ]) {
            const res = await s.json('/callqueue/provisioning', {
              body: { applicationUrl: url, phoneNumber },
            });
            expect(res.status).toBe(200);
          }
          const customerSid = (await s.json('/callqueue/numbers')).body.numbers[0].sid;
          for (const c of callers) {
            if (c.hangup !== undefined) s.engine.setParty(c.id, { hangupAfter: c.hangup - c.arrive });
          }

          const model = new Model(byId);
          const steps = callers
            .flatMap((c) => [
              { at: c.arrive, c, what: 'arrive' as const },
              ...(c.hangup === undefined ? [] : [{ at: c.hangup, c, what: 'hangup' as const }]),
            ])
            .sort((x, y) => x.at - y.at);
          const epoch = s.engine.now();
          const callSid = new Map<string, string>();
          const idOf = new Map<string, string>();
          for (const step of steps) {
            await s.engine.runUntil(epoch + step.at * 1000);
            if (step.what === 'arrive') {
              const sid = s.engine.incomingCall(
                step.c.id,
                step.c.kind === 'customer' ? CUSTOMER_NUMBER : AGENT_NUMBER,
              ).sid;
              callSid.set(step.c.id, sid);
              idOf.set(sid, step.c.id);
              model.arrive(step.c);
            } else {
              model.hangup(step.c);
            }
            await s.engine.runUntil(epoch + step.at * 1000 + 250);
            // The queue state an operator reads equals the model's lines, in order.
            const { queues } = (await s.json('/callqueue/queues')).body;
            const state = queues[0];
            const ids = (side: { members: Array<{ callSid: string; position: number }> }) =>
              side.members.map((m) => idOf.get(m.callSid));
            expect(ids(state.customers)).toEqual(model.customers);
            expect(ids(state.agents)).toEqual(model.agents);
            expect(state.customers.members.map((m: { position: number }) => m.position)).toEqual(
              model.customers.map((_, i) => i + 1),
            );
          }

          // Matches, as recorded against the customer number: the model's, in order.
          const { events } = (await s.json(`/callqueue/numbers/${customerSid}/events`)).body;
          const matches = events
            .filter((e: { type: string }) => e.type === 'match')
            .map((e: { callSid: string; partnerCallSid: string }) => [
              idOf.get(e.callSid),
              idOf.get(e.partnerCallSid),
            ]);
          expect(matches).toEqual(model.matches);
          // A customer is bridged once at most.
          const served = matches.map(([customer]: string[]) => customer);
          expect(new Set(served).size).toBe(served.length);

          // Every call ended, or is still waiting or talking, as in the model.
          for (const c of callers) {
            const live = s.engine.liveCall.length >= 0 && isLive(s.engine, callSid.get(c.id) as string);
            expect({ id: c.id, live }).toEqual({ id: c.id, live: !model.ended.has(c.id) });
          }
        } finally {
          await s.close();
        }
      }),
      { numRuns: RUNS },
    );
  });
});

function isLive(engine: { liveCall(sid: string): unknown }, sid: string): boolean {
  try {
    engine.liveCall(sid);
    return true;
  } catch {
    return false;
  }
}
