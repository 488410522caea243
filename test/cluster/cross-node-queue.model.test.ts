/**
 * Model-based property: arrivals (several at once, on different nodes) and hang-ups spread over
 * 2-3 engines sharing one Redis queue store. After every step the real state (both lines in
 * Redis, the bridges the nodes report, the calls that ended) must be the model's: each side
 * first in, first out, no call connected twice, no call lost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineQueueEvent } from '../../src/engine/queues/events.js';
import type { QueueSide } from '../../src/queue/types.js';
import { BASE, rcml } from '../engine/harness.js';
import { REDIS_URL } from '../support/services.js';
import { type PeerCluster, peerCluster } from './peer-engines.js';

const CUSTOMER_NUMBER = '+15550000002';
const AGENT_NUMBER = '+15550000001';
const DEEP = process.env.RCML_DEEP === '1';

type Step =
  /** Calls arriving together, each on a node; all on one side (they race each other in Redis). */
  | { kind: 'arrive'; side: QueueSide; nodes: number[] }
  /** The party of a started call hangs up (index modulo the calls started so far). */
  | { kind: 'hangup'; pick: number };

const stepArb = (nodeCount: number): fc.Arbitrary<Step> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('arrive' as const),
      side: fc.constantFrom<QueueSide>('enqueued', 'dialer'),
      nodes: fc.array(fc.nat(nodeCount - 1), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('hangup' as const), pick: fc.nat(50) }),
  );

/** What the platform's rules say: two FIFO lines, the pairs connected, the calls ended. */
class Model {
  readonly lines: Record<QueueSide, string[]> = { enqueued: [], dialer: [] };
  readonly partner = new Map<string, string>();
  readonly ended = new Set<string>();
  readonly side = new Map<string, QueueSide>();

  pair(a: string, b: string): void {
    this.partner.set(a, b);
    this.partner.set(b, a);
  }

  hangup(sid: string): void {
    if (this.ended.has(sid)) return;
    this.ended.add(sid);
    const side = this.side.get(sid) as QueueSide;
    const line = this.lines[side];
    if (line.includes(sid)) {
      line.splice(line.indexOf(sid), 1);
      return;
    }
    const p = this.partner.get(sid);
    if (!p) return;
    this.partner.delete(sid);
    this.partner.delete(p);
    if (side === 'enqueued') {
      // The agent's Dial ends with its bridge; nothing follows in its document.
      this.ended.add(p);
      return;
    }
    // The customer's agent left: the next agent waiting is connected, else (rejoin off) dropped.
    const next = this.lines.dialer.shift();
    if (next) this.pair(p, next);
    else this.ended.add(p);
  }
}

/** Pairs connected now, as the nodes report them (a cross-node pair is reported by both). */
function activePairs(events: EngineQueueEvent[][]): Map<string, string> {
  const partner = new Map<string, string>();
  for (const nodeEvents of events) {
    const open = new Map<string, number>();
    for (const e of nodeEvents) {
      if (e.type !== 'bridge' && e.type !== 'bridge-end') continue;
      if (e.type === 'bridge-end' && !e.bridged) continue;
      const key = `${e.callSid} ${e.partnerCallSid}`;
      open.set(key, (open.get(key) ?? 0) + (e.type === 'bridge' ? 1 : -1));
    }
    for (const [key, count] of open) {
      expect(count === 0 || count === 1, `${key} bridged ${count} times at once`).toBe(true);
      if (count !== 1) continue;
      const [a, b] = key.split(' ') as [string, string];
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const known = partner.get(x);
        expect(known === undefined || known === y, `${x} connected to ${known} and ${y}`).toBe(true);
        partner.set(x, y);
      }
    }
  }
  return partner;
}

async function settle(c: PeerCluster): Promise<void> {
  const count = () => c.nodes.reduce((n, node) => n + node.h.events.length, 0);
  // Signals answer signals (offer, accept, ready, left, a rejoin's next offer): run rounds until
  // a round changes nothing on any node.
  for (let rounds = 0, before = -1; rounds < 30 && before !== count(); rounds++) {
    before = count();
    await c.tick(0);
  }
}

async function run(nodeCount: number, steps: Step[]): Promise<void> {
  const c = await peerCluster(
    Array.from({ length: nodeCount }, () => ({
      '/customer': rcml('<Enqueue>support</Enqueue>'),
      '/agent': rcml('<Dial timeout="3600"><Queue>support</Queue></Dial>'),
    })),
  );
  try {
    for (const n of c.nodes) {
      n.h.engine.setNumber(CUSTOMER_NUMBER, { voiceUrl: `${BASE}/customer` });
      n.h.engine.setNumber(AGENT_NUMBER, { voiceUrl: `${BASE}/agent` });
    }
    const model = new Model();
    const calls: Array<{ sid: string; node: number }> = [];
    let from = 0;
    for (const step of steps) {
      if (step.kind === 'hangup') {
        if (calls.length === 0) continue;
        const call = calls[step.pick % calls.length] as { sid: string; node: number };
        if (model.ended.has(call.sid)) continue;
        c.nodes[call.node]?.h.engine.hangupParty(call.sid);
        model.hangup(call.sid);
      } else {
        const started = step.nodes.map((node) => {
          const number = step.side === 'enqueued' ? CUSTOMER_NUMBER : AGENT_NUMBER;
          const sid = c.nodes[node]!.h.engine.incomingCall(
            `+1444${String(++from).padStart(7, '0')}`,
            number,
          ).sid;
          calls.push({ sid, node });
          model.side.set(sid, step.side);
          return sid;
        });
        await settle(c);
        // Who among calls arriving together came first is Redis's choice: the heads of the
        // other side are taken in order, by some of them; the rest wait, in the order Redis
        // recorded them.
        const other = step.side === 'enqueued' ? 'dialer' : 'enqueued';
        const heads = model.lines[other].splice(0, Math.min(started.length, model.lines[other].length));
        const actual = activePairs(c.nodes.map((n) => queueEvents(n.h.events)));
        const matched = started.filter((sid) => actual.has(sid));
        expect(matched.map((sid) => actual.get(sid)).sort()).toEqual([...heads].sort());
        for (const sid of matched) model.pair(sid, actual.get(sid) as string);
        const waiting = (await c.nodes[0]!.h.engine.getQueue('support'))?.[step.side].members.map(
          (m) => m.callSid,
        );
        const newcomers = (waiting ?? []).filter((sid) => started.includes(sid));
        expect(newcomers.sort()).toEqual(started.filter((sid) => !actual.has(sid)).sort());
        model.lines[step.side].push(...(waiting ?? []).filter((sid) => started.includes(sid)));
      }
      await settle(c);
      const queue = await c.nodes[0]!.h.engine.getQueue('support');
      for (const side of ['enqueued', 'dialer'] as const) {
        expect(queue?.[side].members.map((m) => m.callSid) ?? [], `${side} line`).toEqual(model.lines[side]);
      }
      const actual = activePairs(c.nodes.map((n) => queueEvents(n.h.events)));
      expect(new Map([...actual].sort()), 'connected pairs').toEqual(new Map([...model.partner].sort()));
      for (const { sid, node } of calls) {
        const status = c.nodes[node]?.h.engine.getCall(sid)?.status;
        // Nothing lost: every call waits, is connected, or ended, as the model says.
        expect(status, `status of ${sid}`).toBe(model.ended.has(sid) ? 'completed' : 'in-progress');
      }
    }
  } finally {
    await c.close();
  }
}

const queueEvents = (events: ReadonlyArray<{ type: string; event?: unknown }>): EngineQueueEvent[] =>
  events.flatMap((e) => (e.type === 'queue' ? [e.event as EngineQueueEvent] : []));

describe.skipIf(!REDIS_URL)('queues over several nodes (model)', () => {
  it('keep each side FIFO, connect no call twice and lose none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 2, max: 3 })
          .chain((n) =>
            fc.tuple(fc.constant(n), fc.array(stepArb(n), { minLength: 1, maxLength: DEEP ? 30 : 12 })),
          ),
        ([n, steps]) => run(n, steps),
      ),
      { numRuns: DEEP ? 150 : 15 },
    );
  }, 120_000);
});
