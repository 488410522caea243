import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ArriveOutcome,
  type LeaveReason,
  otherSide,
  type QueueEvent,
  type QueueMatcher,
  type QueueSide,
} from '../../src/queue/index.js';
import { ACCOUNT, makeMatcher } from './harness.js';

/** The reference: two arrays and plain sets. */
interface Model {
  lines: Record<QueueSide, string[]>;
  sideOf: Map<string, QueueSide>;
  /** agent (enqueued) -> customer (dialer) currently bridged. */
  bridges: Map<string, string>;
  ended: Set<string>;
  next: number;
  maxSize: number;
}

interface Real {
  matcher: QueueMatcher;
  clock: { now: number };
  events: QueueEvent[];
  queueSid: string;
}

const MAX_SIZE = 4;

function bridge(m: Model, a: string, b: string): void {
  const bridged = new Set([...m.bridges.keys(), ...m.bridges.values()]);
  // Nobody is bridged twice at once.
  expect(bridged.has(a) || bridged.has(b)).toBe(false);
  const [agent, customer] = m.sideOf.get(a) === 'enqueued' ? [a, b] : [b, a];
  m.bridges.set(agent, customer);
}

function expectArrival(m: Model, callSid: string, side: QueueSide, outcome: ArriveOutcome): void {
  const other = m.lines[otherSide(side)];
  if (other.length > 0) {
    const head = other.shift()!;
    expect(outcome).toMatchObject({ status: 'matched', partner: { callSid: head } });
    bridge(m, callSid, head);
  } else if (m.lines[side].length >= m.maxSize) {
    expect(outcome.status).toBe('queue-full');
    m.ended.add(callSid);
  } else {
    m.lines[side].push(callSid);
    expect(outcome).toMatchObject({ status: 'waiting', position: m.lines[side].length });
  }
}

/** After every step: same lines in the same order, positions 1..n, nobody lost. */
async function verify(m: Model, r: Real): Promise<void> {
  const snap = await r.matcher.inspect(r.queueSid);
  for (const side of ['enqueued', 'dialer'] as const) {
    const view = snap[side];
    expect(view.members.map((x) => x.callSid)).toEqual(m.lines[side]);
    expect(view.members.map((x) => x.position)).toEqual(m.lines[side].map((_, i) => i + 1));
    for (const [i, callSid] of m.lines[side].entries()) {
      expect(await r.matcher.position({ queueSid: r.queueSid, side, callSid })).toBe(i + 1);
    }
  }
  const places = [
    ...m.lines.enqueued,
    ...m.lines.dialer,
    ...m.bridges.keys(),
    ...m.bridges.values(),
    ...m.ended,
  ].sort();
  expect(places).toEqual([...m.sideOf.keys()].sort());
}

class Arrive implements fc.AsyncCommand<Model, Real> {
  constructor(readonly side: QueueSide) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const callSid = `${this.side === 'enqueued' ? 'A' : 'C'}${m.next++}`;
    m.sideOf.set(callSid, this.side);
    const outcome = await r.matcher.arrive({ accountSid: ACCOUNT, queueName: 'q', callSid, side: this.side });
    expectArrival(m, callSid, this.side, outcome);
    await verify(m, r);
  }
  toString = () => `arrive(${this.side})`;
}

class Leave implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly side: QueueSide,
    readonly pick: number,
    readonly reason: LeaveReason,
  ) {}
  check = (m: Readonly<Model>) => m.lines[this.side].length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const line = m.lines[this.side];
    const index = this.pick % line.length;
    const [callSid] = line.splice(index, 1);
    m.ended.add(callSid);
    const out = await r.matcher.leave({ queueSid: r.queueSid, side: this.side, callSid }, this.reason);
    expect(out).toMatchObject({ position: index + 1, member: { callSid } });
    await verify(m, r);
  }
  toString = () => `leave(${this.side}, ${this.pick}, ${this.reason})`;
}

/** A hang-up racing a match: the call is bridged, so leave finds nothing. */
class LeaveTooLate implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.bridges.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const agents = [...m.bridges.keys()];
    const agent = agents[this.pick % agents.length];
    expect(
      await r.matcher.leave({ queueSid: r.queueSid, side: 'enqueued', callSid: agent }, 'hangup'),
    ).toBeUndefined();
    await verify(m, r);
  }
  toString = () => `leaveTooLate(${this.pick})`;
}

/** The customer of a bridged agent hangs up: the rejoin rule applies. */
class CustomerHangsUp implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly rejoin: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.bridges.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const agents = [...m.bridges.keys()];
    const agent = agents[this.pick % agents.length];
    m.ended.add(m.bridges.get(agent)!);
    m.bridges.delete(agent);
    const out = await r.matcher.afterBridge({ queueSid: r.queueSid, callSid: agent, rejoin: this.rejoin });
    if (m.lines.dialer.length > 0) {
      const next = m.lines.dialer.shift()!;
      expect(out).toMatchObject({ decision: 'connect-next', partner: { callSid: next } });
      bridge(m, agent, next);
    } else if (this.rejoin) {
      expect(out.decision).toBe('rejoin');
      if (out.decision === 'rejoin') expectArrival(m, agent, 'enqueued', out.arrival);
    } else {
      expect(out).toEqual({ decision: 'drop' });
      m.ended.add(agent);
    }
    await verify(m, r);
  }
  toString = () => `customerHangsUp(${this.pick}, rejoin=${this.rejoin})`;
}

class Tick implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    r.clock.now += this.ms;
  }
  toString = () => `tick(${this.ms})`;
}

const side = fc.constantFrom<QueueSide>('enqueued', 'dialer');
const reason = fc.constantFrom<LeaveReason>(
  'leave',
  'hangup',
  'redirected',
  'timeout',
  'error',
  'system-error',
);
const commands = [
  side.map((s) => new Arrive(s)),
  side.map((s) => new Arrive(s)),
  fc.tuple(side, fc.nat(), reason).map(([s, p, why]) => new Leave(s, p, why)),
  fc.nat().map((p) => new LeaveTooLate(p)),
  fc.tuple(fc.nat(), fc.boolean()).map(([p, rejoin]) => new CustomerHangsUp(p, rejoin)),
  fc.integer({ min: 0, max: 60_000 }).map((ms) => new Tick(ms)),
];

describe('QueueMatcher against a reference model', () => {
  it('keeps FIFO on both sides, matches nobody twice, loses nobody, positions 1..n', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 100, size: 'max' }), async (cmds) => {
        const { matcher, clock, events } = makeMatcher({ defaultMaxSize: MAX_SIZE });
        const queueSid = (await matcher.queue(ACCOUNT, 'q')).sid;
        const model: Model = {
          lines: { enqueued: [], dialer: [] },
          sideOf: new Map(),
          bridges: new Map(),
          ended: new Set(),
          next: 0,
          maxSize: MAX_SIZE,
        };
        await fc.asyncModelRun(() => ({ model, real: { matcher, clock, events, queueSid } }), cmds);
        // Every match event pairs one call from each side, in order of arrival on the waiting side.
        for (const e of events) {
          if (e.type === 'match') expect(e.waiting.side).not.toBe(e.arriving.side);
          if (e.type === 'enqueue') expect(e.position).toBe(e.size);
        }
      }),
      { numRuns: process.env.RCML_DEEP ? 3000 : 150 },
    );
  });
});
