import { describe, expect, it } from 'vitest';
import { isQueueSid, MemoryQueueStore, QueueError, type QueueTicket } from '../../src/queue/index.js';
import { ACCOUNT, makeMatcher } from './harness.js';

const ticketOf = (outcome: { status: string; ticket?: QueueTicket }): QueueTicket => {
  if (outcome.status !== 'waiting' || !outcome.ticket)
    throw new Error(`expected waiting, got ${outcome.status}`);
  return outcome.ticket;
};

describe('queues', () => {
  it('are created on first use with a QU sid, unique by name per account', async () => {
    const { matcher, clock } = makeMatcher();
    const a = await matcher.queue(ACCOUNT, 'support');
    expect(isQueueSid(a.sid)).toBe(true);
    expect(a).toMatchObject({ accountSid: ACCOUNT, name: 'support', maxSize: 100, dateCreated: clock.now });
    expect(await matcher.queue(ACCOUNT, 'support')).toEqual(a);
    const other = await matcher.queue('AC2', 'support');
    expect(other.sid).not.toBe(a.sid);
    expect((await matcher.queue(ACCOUNT, 'Support')).sid).not.toBe(a.sid);
    expect((await matcher.listQueues(ACCOUNT)).map((q) => q.name)).toEqual(['support', 'Support']);
    expect(await matcher.getQueue(a.sid)).toEqual(a);
  });

  it('take the configured default size limit, a per-queue one, and changes up to 5000', async () => {
    const { matcher } = makeMatcher({ defaultMaxSize: 3 });
    expect((await matcher.queue(ACCOUNT, 'a')).maxSize).toBe(3);
    const b = await matcher.queue(ACCOUNT, 'b', { maxSize: 5000 });
    expect(b.maxSize).toBe(5000);
    expect((await matcher.setMaxSize(b.sid, 10)).maxSize).toBe(10);
    await expect(matcher.setMaxSize(b.sid, 5001)).rejects.toThrow(/maxSize: queue size limit/);
    await expect(matcher.setMaxSize('QUnope', 10)).rejects.toMatchObject({ code: 'unknown-queue' });
    expect(() => makeMatcher({ defaultMaxSize: 0 })).toThrow(/options\.defaultMaxSize/);
  });

  it('refuse arrivals without an account, a call sid or a valid side, naming the field', async () => {
    const { matcher } = makeMatcher();
    await expect(matcher.enqueue({ accountSid: '', queueName: 'q', callSid: 'CA1' })).rejects.toThrow(
      /^accountSid:/,
    );
    await expect(matcher.dial({ accountSid: ACCOUNT, queueName: 'q', callSid: '' })).rejects.toMatchObject({
      code: 'invalid-request',
      message: expect.stringMatching(/^callSid:/),
    });
    const side = 'agent' as unknown as 'dialer';
    await expect(
      matcher.arrive({ accountSid: ACCOUNT, queueName: 'q', callSid: 'CA1', side }),
    ).rejects.toThrow(/^side:/);
  });

  it('refuse blank names', async () => {
    const { matcher } = makeMatcher();
    await expect(
      matcher.enqueue({ accountSid: ACCOUNT, queueName: '', callSid: 'CA1' }),
    ).rejects.toMatchObject({
      code: 'invalid-name',
    });
  });
});

describe('matching', () => {
  it('makes an enqueued call wait, then matches the first dialer with it', async () => {
    const { matcher, clock, events } = makeMatcher();
    const waiting = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'q', callSid: 'CAagent' });
    expect(waiting).toMatchObject({ status: 'waiting', position: 1 });
    clock.now += 7_000;
    const matched = await matcher.dial({ accountSid: ACCOUNT, queueName: 'q', callSid: 'CAcustomer' });
    expect(matched).toMatchObject({
      status: 'matched',
      partner: { callSid: 'CAagent' },
      partnerWaitMs: 7_000,
    });
    expect(events.map((e) => e.type)).toEqual(['enqueue', 'match']);
    expect(events[1]).toMatchObject({
      waiting: { callSid: 'CAagent', side: 'enqueued', waitMs: 7_000 },
      arriving: { callSid: 'CAcustomer', side: 'dialer' },
    });
  });

  it('serves both sides first in, first out', async () => {
    const { matcher } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    for (const c of ['d1', 'd2', 'd3']) await matcher.dial({ ...q, callSid: c });
    const partners: string[] = [];
    for (const c of ['e1', 'e2', 'e3']) {
      const r = await matcher.enqueue({ ...q, callSid: c });
      if (r.status === 'matched') partners.push(r.partner.callSid);
    }
    expect(partners).toEqual(['d1', 'd2', 'd3']);
    for (const c of ['e4', 'e5']) await matcher.enqueue({ ...q, callSid: c });
    const r = await matcher.dial({ ...q, callSid: 'd4' });
    expect(r).toMatchObject({ status: 'matched', partner: { callSid: 'e4' } });
  });

  it('never leaves both sides waiting when arrivals run concurrently', async () => {
    const { matcher } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? matcher.dial({ ...q, callSid: `d${i}` }) : matcher.enqueue({ ...q, callSid: `e${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'matched')).toHaveLength(10);
    const snap = await matcher.inspect(outcomes[0].queue.sid);
    expect(snap.enqueued.size + snap.dialer.size).toBe(0);
  });

  it('reports queue-full beyond the size limit, unless someone on the other side can take the call', async () => {
    const { matcher, events } = makeMatcher({ defaultMaxSize: 2 });
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    await matcher.enqueue({ ...q, callSid: 'e1' });
    await matcher.enqueue({ ...q, callSid: 'e2' });
    expect(await matcher.enqueue({ ...q, callSid: 'e3' })).toMatchObject({ status: 'queue-full', size: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'queue-full', callSid: 'e3', size: 2, maxSize: 2 });
    // Dialers are limited on their own side the same way; with agents waiting they are matched.
    expect(await matcher.dial({ ...q, callSid: 'd1' })).toMatchObject({ status: 'matched' });
  });

  it('uses the default limit of 100', async () => {
    const { matcher } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    for (let i = 0; i < 100; i++) await matcher.enqueue({ ...q, callSid: `e${i}` });
    expect((await matcher.enqueue({ ...q, callSid: 'e100' })).status).toBe('queue-full');
  });

  it('refuses a call that is already waiting in the queue', async () => {
    const { matcher } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    await matcher.enqueue({ ...q, callSid: 'c' });
    await expect(matcher.enqueue({ ...q, callSid: 'c' })).rejects.toBeInstanceOf(QueueError);
    await matcher.dial({ ...q, callSid: 'x' }); // takes c
    await matcher.dial({ ...q, callSid: 'd' });
    await expect(matcher.enqueue({ ...q, callSid: 'd' })).rejects.toMatchObject({ code: 'already-waiting' });
  });
});

describe('leaving', () => {
  it('removes the call, gives its position to the next and maps the reason to a QueueResult', async () => {
    const { matcher, clock, events } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    const t1 = ticketOf(await matcher.enqueue({ ...q, callSid: 'e1' }));
    const t2 = ticketOf(await matcher.enqueue({ ...q, callSid: 'e2' }));
    const t3 = ticketOf(await matcher.enqueue({ ...q, callSid: 'e3' }));
    clock.now += 4_500;
    events.length = 0;
    expect(await matcher.leave(t2, 'hangup')).toMatchObject({ position: 2, waitMs: 4_500, result: 'hangup' });
    expect(events).toMatchObject([
      { type: 'leave', callSid: 'e2', reason: 'hangup', position: 2 },
      { type: 'position-change', side: 'enqueued', vacated: 2, size: 2 },
    ]);
    expect(await matcher.position(t3)).toBe(2);
    expect((await matcher.leave(t1, 'leave'))?.result).toBe('leave');
    expect(await matcher.position(t3)).toBe(1);
    expect((await matcher.leave(t3, 'redirected'))?.result).toBe('redirected');
    expect(await matcher.position(t3)).toBeUndefined();
    expect(await matcher.leave(t3, 'hangup')).toBeUndefined();
  });

  it('reports a timeout as its own event, with no QueueResult', async () => {
    const { matcher, events } = makeMatcher();
    const t = ticketOf(await matcher.dial({ accountSid: ACCOUNT, queueName: 'q', callSid: 'd1' }));
    expect(await matcher.leave(t, 'timeout')).toMatchObject({ result: undefined, position: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'timeout', callSid: 'd1', side: 'dialer' });
  });

  it('returns undefined for a call matched before it could leave', async () => {
    const { matcher } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    const t = ticketOf(await matcher.enqueue({ ...q, callSid: 'e1' }));
    await matcher.dial({ ...q, callSid: 'd1' });
    expect(await matcher.leave(t, 'hangup')).toBeUndefined();
  });
});

describe('inspection and wait parameters', () => {
  it('lists members in order with positions, waits, averages and limits', async () => {
    const { matcher, clock } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    await matcher.enqueue({ ...q, callSid: 'e1' });
    clock.now += 10_000;
    const t2 = ticketOf(await matcher.enqueue({ ...q, callSid: 'e2' }));
    await matcher.enqueue({ ...q, callSid: 'e3' });
    clock.now += 20_000;
    await matcher.dial({ ...q, callSid: 'd1' }); // serves e1 after 30 s
    clock.now += 2_000;
    const snap = await matcher.inspect(t2.queueSid);
    expect(snap.maxSize).toBe(100);
    expect(snap.enqueued).toMatchObject({
      size: 2,
      servedCount: 1,
      averageWaitMs: 30_000,
      members: [
        { callSid: 'e2', position: 1, waitMs: 22_000 },
        { callSid: 'e3', position: 2, waitMs: 22_000 },
      ],
    });
    expect(snap.dialer).toMatchObject({ size: 0, members: [], servedCount: 0, averageWaitMs: 0 });
    expect(await matcher.waitParams(t2)).toEqual({
      QueueSid: t2.queueSid,
      QueuePosition: '1',
      QueueTime: '22',
      AvgQueueTime: '30',
      CurrentQueueSize: '2',
      MaxQueueSize: '100',
    });
  });

  it('gives no wait parameters for a call not waiting, and names unknown queues', async () => {
    const { matcher } = makeMatcher();
    const queue = await matcher.queue(ACCOUNT, 'q');
    expect(
      await matcher.waitParams({ queueSid: queue.sid, side: 'enqueued', callSid: 'nobody' }),
    ).toBeUndefined();
    await expect(matcher.inspect('QUmissing')).rejects.toThrow(/no queue with sid QUmissing/);
  });
});

describe('after a bridge ends (rejoin)', () => {
  async function bridged(rejoinCustomers: string[]) {
    const h = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    const t = ticketOf(await h.matcher.enqueue({ ...q, callSid: 'agent' }));
    await h.matcher.dial({ ...q, callSid: 'c0' });
    for (const c of rejoinCustomers) await h.matcher.dial({ ...q, callSid: c });
    h.events.length = 0;
    return { ...h, queueSid: t.queueSid };
  }

  it('connects the next waiting customer', async () => {
    const { matcher, queueSid, events } = await bridged(['c1', 'c2']);
    const r = await matcher.afterBridge({ queueSid, callSid: 'agent', rejoin: false });
    expect(r).toMatchObject({ decision: 'connect-next', partner: { callSid: 'c1' } });
    expect(events[0]).toMatchObject({
      type: 'match',
      waiting: { callSid: 'c1' },
      arriving: { callSid: 'agent' },
    });
  });

  it('re-enqueues the agent with rejoin=true when no customer waits', async () => {
    const { matcher, queueSid, events } = await bridged([]);
    const r = await matcher.afterBridge({ queueSid, callSid: 'agent', rejoin: true });
    expect(r).toMatchObject({ decision: 'rejoin', arrival: { status: 'waiting', position: 1 } });
    expect(events.map((e) => e.type)).toEqual(['rejoin', 'enqueue']);
  });

  it('applies the rule to no customer when the one counted was taken elsewhere meanwhile', async () => {
    // A store shared by nodes: the customer counted is gone by the time it is dequeued (another
    // node's takeover removed it), so nobody is connected.
    class Racing extends MemoryQueueStore {
      override async dequeueHead(): Promise<undefined> {
        return undefined;
      }
    }
    for (const rejoin of [false, true]) {
      const { matcher } = makeMatcher({ store: new Racing() });
      const q = { accountSid: ACCOUNT, queueName: 'q' };
      const t = ticketOf(await matcher.enqueue({ ...q, callSid: 'agent' }));
      await matcher.leave(t, 'leave');
      await matcher.dial({ ...q, callSid: 'c1' });
      const r = await matcher.afterBridge({ queueSid: t.queueSid, callSid: 'agent', rejoin });
      expect(r.decision).toBe(rejoin ? 'rejoin' : 'drop');
    }
  });

  it('drops the agent with rejoin=false when no customer waits', async () => {
    const { matcher, queueSid, events } = await bridged([]);
    expect(await matcher.afterBridge({ queueSid, callSid: 'agent', rejoin: false })).toEqual({
      decision: 'drop',
    });
    expect(events).toMatchObject([{ type: 'drop', callSid: 'agent', side: 'enqueued' }]);
    expect((await matcher.inspect(queueSid)).enqueued.size).toBe(0);
  });
});

describe('events', () => {
  it('report position changes after a match and stop after unsubscribing', async () => {
    const { matcher, events } = makeMatcher();
    const q = { accountSid: ACCOUNT, queueName: 'q' };
    await matcher.dial({ ...q, callSid: 'd1' });
    await matcher.dial({ ...q, callSid: 'd2' });
    events.length = 0;
    const seen: string[] = [];
    const stop = matcher.subscribe((e) => seen.push(e.type));
    await matcher.enqueue({ ...q, callSid: 'e1' });
    expect(events).toMatchObject([
      { type: 'match', queueName: 'q', accountSid: ACCOUNT },
      { type: 'position-change', side: 'dialer', vacated: 1, size: 1 },
    ]);
    stop();
    await matcher.enqueue({ ...q, callSid: 'e2' });
    expect(seen).toEqual(['match', 'position-change']);
    expect(events.map((e) => e.type)).toEqual(['match', 'position-change', 'match']);
  });
});

describe('store', () => {
  it('can be supplied and shared by two matchers', async () => {
    const store = new MemoryQueueStore();
    const a = makeMatcher({ store });
    const b = makeMatcher({ store });
    await a.matcher.enqueue({ accountSid: ACCOUNT, queueName: 'q', callSid: 'e1' });
    expect(await b.matcher.dial({ accountSid: ACCOUNT, queueName: 'q', callSid: 'd1' })).toMatchObject({
      status: 'matched',
      partner: { callSid: 'e1' },
    });
  });

  it('rejects operations on unknown queues with code unknown-queue', async () => {
    const store = new MemoryQueueStore();
    await expect(store.size('QUx', 'dialer')).rejects.toMatchObject({ code: 'unknown-queue' });
    expect(await store.getQueue('QUx')).toBeUndefined();
    expect(await store.listQueues('AC')).toEqual([]);
  });
});
