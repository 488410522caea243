import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { type ArriveOutcome, QueueMatcher } from '../../src/queue/matcher.js';
import { MemoryQueueStore } from '../../src/queue/memory-store.js';
import { seededQueueSids } from '../../src/queue/sid.js';
import type { QueueStore } from '../../src/queue/store.js';
import type { QueueSide, QueueTicket } from '../../src/queue/types.js';
import { ACCOUNT } from '../queue/harness.js';
import { countCommands } from '../support/redis-commands.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections.splice(0)) c.disconnect();
});
const connect = () => {
  const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  connections.push(r);
  return r;
};

/** `n` stores over one prefix, each on its own connection: as many nodes. */
function nodes(n: number): RedisQueueStore[] {
  const prefix = `${REDIS_PREFIX}${uniqueName('q')}`;
  return Array.from({ length: n }, () => new RedisQueueStore(connect(), prefix));
}

const matcherOn = (store: QueueStore, clock: () => number, seed = 1) =>
  new QueueMatcher({ store, clock, newSid: seededQueueSids(seed) });

describe.skipIf(!REDIS_URL)('Redis queue store', () => {
  it('keeps queues and both FIFO lines like the memory store', async () => {
    const [s] = nodes(1);
    const q = await s.ensureQueue({
      sid: 'QU1',
      accountSid: ACCOUNT,
      name: 'support',
      maxSize: 3,
      dateCreated: 5,
    });
    expect(await s.ensureQueue({ ...q, sid: 'QU2' })).toEqual(q);
    expect(await s.findQueue(ACCOUNT, 'support')).toEqual(q);
    expect(await s.listQueues(ACCOUNT)).toEqual([q]);
    for (const [i, sid] of ['a', 'b', 'c'].entries()) {
      expect(await s.enqueue('QU1', { callSid: sid, side: 'enqueued', enqueuedAt: i })).toBe(i + 1);
    }
    await expect(s.enqueue('QU1', { callSid: 'b', side: 'enqueued', enqueuedAt: 9 })).rejects.toMatchObject({
      code: 'already-waiting',
    });
    expect(await s.position('QU1', 'enqueued', 'c')).toMatchObject({ position: 3 });
    expect(await s.remove('QU1', 'enqueued', 'b')).toMatchObject({ position: 2, member: { callSid: 'b' } });
    expect(await s.position('QU1', 'enqueued', 'c')).toMatchObject({ position: 2 });
    expect((await s.dequeueHead('QU1', 'enqueued'))?.callSid).toBe('a');
    expect((await s.list('QU1', 'enqueued')).map((m) => m.callSid)).toEqual(['c']);
    await s.recordServed('QU1', 'enqueued', 40);
    expect(await s.servedStats('QU1', 'enqueued')).toEqual({ count: 1, totalWaitMs: 40 });
    expect((await s.setMaxSize('QU1', 7))?.maxSize).toBe(7);
    await expect(s.size('QUnone', 'dialer')).rejects.toMatchObject({ code: 'unknown-queue' });
    expect(await s.getQueue('QUnone')).toBeUndefined();
  });

  it('a customer arriving through one node meets an agent waiting through another', async () => {
    const [one, two] = nodes(2);
    let t = 1000;
    const a = matcherOn(one, () => t);
    const b = matcherOn(two, () => t, 2);
    const waiting = await a.enqueue({ accountSid: ACCOUNT, queueName: 'q', callSid: 'agent' });
    expect(waiting.status).toBe('waiting');
    t += 2500;
    expect(await b.dial({ accountSid: ACCOUNT, queueName: 'q', callSid: 'customer' })).toMatchObject({
      status: 'matched',
      partner: { callSid: 'agent' },
      partnerWaitMs: 2500,
    });
  });

  it('never matches a call twice when arrivals race on several nodes', async () => {
    const stores = nodes(3);
    const matchers = stores.map((s, i) => matcherOn(s, () => 1000, i + 1));
    await matchers[0].enqueue({ accountSid: ACCOUNT, queueName: 'race', callSid: 'seed' }); // create once
    await matchers[0].leave(
      {
        queueSid: (await stores[0].findQueue(ACCOUNT, 'race'))?.sid as string,
        side: 'enqueued',
        callSid: 'seed',
      },
      'leave',
    );
    const arrivals: Array<Promise<ArriveOutcome>> = [];
    for (let i = 0; i < 60; i++) {
      const m = matchers[i % 3];
      const side: QueueSide = i % 2 === 0 ? 'enqueued' : 'dialer';
      arrivals.push(m.arrive({ accountSid: ACCOUNT, queueName: 'race', callSid: `c${i}`, side }));
    }
    const outcomes = await Promise.all(arrivals);
    const partners = outcomes.flatMap((o) => (o.status === 'matched' ? [o.partner.callSid] : []));
    expect(new Set(partners).size).toBe(partners.length);
    const waiting = outcomes
      .filter((o) => o.status === 'waiting')
      .map((o) => (o as { ticket: QueueTicket }).ticket.callSid);
    // Every call is matched (as arrival or partner) or still waits, exactly once.
    const matchedArrivals = outcomes.flatMap((o, i) => (o.status === 'matched' ? [`c${i}`] : []));
    const stillWaiting = waiting.filter((c) => !partners.includes(c));
    expect([...matchedArrivals, ...partners, ...stillWaiting].sort()).toEqual(
      Array.from({ length: 60 }, (_, i) => `c${i}`).sort(),
    );
    const sid = (await stores[1].findQueue(ACCOUNT, 'race'))?.sid as string;
    for (const side of ['enqueued', 'dialer'] as const) {
      const members = await stores[2].list(sid, side);
      for (const [i, m] of members.entries()) {
        expect((await stores[1].position(sid, side, m.callSid))?.position).toBe(i + 1);
      }
    }
    // Only one side can be left waiting.
    expect(
      Math.min((await stores[0].list(sid, 'enqueued')).length, (await stores[0].list(sid, 'dialer')).length),
    ).toBe(0);
  });

  it('arrivals in flight together through one matcher end as one at a time would, events in order', async () => {
    const [store] = nodes(1);
    const seen: string[] = [];
    const shared = new QueueMatcher({
      store,
      clock: () => 1000,
      newSid: seededQueueSids(1),
      listener: (e) =>
        seen.push(
          `${e.type}:${'callSid' in e ? e.callSid : ((e as { arriving?: { callSid: string } }).arriving?.callSid ?? '')}`,
        ),
    });
    const alone: string[] = [];
    const memory = new QueueMatcher({
      store: new MemoryQueueStore(),
      clock: () => 1000,
      newSid: seededQueueSids(1),
      listener: (e) =>
        alone.push(
          `${e.type}:${'callSid' in e ? e.callSid : ((e as { arriving?: { callSid: string } }).arriving?.callSid ?? '')}`,
        ),
    });
    const sides: QueueSide[] = Array.from({ length: 40 }, (_, i) => (i % 5 < 3 ? 'enqueued' : 'dialer'));
    const request = (i: number) => ({
      accountSid: ACCOUNT,
      queueName: 'burst',
      callSid: `b${i}`,
      side: sides[i],
    });
    await shared.queue(ACCOUNT, 'burst');
    await memory.queue(ACCOUNT, 'burst');
    const together = await Promise.all(sides.map((_, i) => shared.arrive(request(i))));
    const oneByOne: ArriveOutcome[] = [];
    for (const i of sides.keys()) oneByOne.push(await memory.arrive(request(i)));
    const summary = (o: ArriveOutcome) =>
      o.status === 'matched'
        ? `matched ${o.partner.callSid}`
        : o.status === 'waiting'
          ? `waiting ${o.position}`
          : o.status;
    expect(together.map(summary)).toEqual(oneByOne.map(summary));
    expect(seen).toEqual(alone);
  });

  it('answers any sequence of arrivals and leaves over any nodes as the memory store does (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            node: fc.integer({ min: 0, max: 2 }),
            kind: fc.constantFrom('arrive', 'arrive', 'leave'),
            side: fc.constantFrom<QueueSide>('enqueued', 'dialer'),
            pick: fc.nat(),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 6 }),
        async (ops, maxSize) => {
          let t = 0;
          const clock = () => t;
          const shared = nodes(3).map(
            (s) => new QueueMatcher({ store: s, clock, newSid: seededQueueSids(1), defaultMaxSize: maxSize }),
          );
          const model = new QueueMatcher({
            store: new MemoryQueueStore(),
            clock,
            newSid: seededQueueSids(1),
            defaultMaxSize: maxSize,
          });
          const tickets: QueueTicket[] = [];
          let n = 0;
          for (const op of ops) {
            t += 1000;
            if (op.kind === 'leave' && tickets.length > 0) {
              const ticket = tickets[op.pick % tickets.length];
              const [got, want] = [
                await shared[op.node].leave(ticket, 'hangup'),
                await model.leave(ticket, 'hangup'),
              ];
              expect(got).toEqual(want);
              continue;
            }
            const request = { accountSid: ACCOUNT, queueName: 'p', callSid: `c${n++}`, side: op.side };
            const [got, want] = [await shared[op.node].arrive(request), await model.arrive(request)];
            expect(got).toEqual(want);
            if (want.status === 'waiting') tickets.push(want.ticket);
          }
          const [q] = await model.listQueues(ACCOUNT);
          if (q) expect(await shared[1].inspect(q.sid)).toEqual(await model.inspect(q.sid));
        },
      ),
      { numRuns: process.env.RCML_DEEP ? 200 : 25 },
    );
  });
});

describe.skipIf(!REDIS_URL)('Redis queue store costs', () => {
  it('takes one round trip for an arrival', async () => {
    const [s] = nodes(1);
    await s.ensureQueue({ sid: 'QU9', accountSid: ACCOUNT, name: 'x', maxSize: 5, dateCreated: 0 });
    const redis = (s as unknown as { redis: Redis }).redis;
    await s.arrive('QU9', { callSid: 'warm', side: 'enqueued', enqueuedAt: 0 }); // loads the script
    const sent = countCommands(redis);
    await s.arrive('QU9', { callSid: 'd', side: 'dialer', enqueuedAt: 1 });
    await s.arrive('QU9', { callSid: 'e', side: 'enqueued', enqueuedAt: 2 });
    expect(sent()).toBe(2);
  });

  it('takes one round trip for an arrival through the matcher, the queue looked up by name included', async () => {
    const [s] = nodes(1);
    const matcher = matcherOn(s, () => 5);
    await matcher.dial({ accountSid: ACCOUNT, queueName: 'named', callSid: 'warm' }); // loads the scripts
    const redis = (s as unknown as { redis: Redis }).redis;
    const sent = countCommands(redis);
    const out = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'named', callSid: 'e' });
    expect(out).toMatchObject({ status: 'matched', partner: { callSid: 'warm' }, partnerWaitMs: 0 });
    expect(sent()).toBe(1);
    expect(await s.findQueue(ACCOUNT, 'nameless')).toBeUndefined();
  });

  it('reports a full side, a call already waiting and the partner’s wait through the arrival by name', async () => {
    const [s] = nodes(1);
    let now = 1000;
    const matcher = matcherOn(s, () => now);
    const first = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'small', callSid: 'c1' });
    if (first.status !== 'waiting') throw new Error(`expected waiting, got ${first.status}`);
    await matcher.setMaxSize(first.queue.sid, 1);
    expect(await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'small', callSid: 'c2' })).toMatchObject({
      status: 'queue-full',
      size: 1,
      queue: { sid: first.queue.sid, maxSize: 1 },
    });
    await expect(matcher.dial({ accountSid: ACCOUNT, queueName: 'small', callSid: 'c1' })).rejects.toThrow(
      `call c1 is already waiting on the enqueued side of ${first.queue.sid}`,
    );
    now = 3500;
    expect(await matcher.dial({ accountSid: ACCOUNT, queueName: 'small', callSid: 'a1' })).toMatchObject({
      status: 'matched',
      partner: { callSid: 'c1' },
      partnerWaitMs: 2500,
    });
    expect(await s.servedStats(first.queue.sid, 'enqueued')).toEqual({ count: 1, totalWaitMs: 2500 });
  });
  it('refuses a call already waiting on its own side, in a queue with room and in a full one', async () => {
    const [s] = nodes(1);
    const matcher = matcherOn(s, () => 7);
    const first = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'twice', callSid: 'c1' });
    if (first.status !== 'waiting') throw new Error(`expected waiting, got ${first.status}`);
    const again = () => s.arriveByName(ACCOUNT, 'twice', { callSid: 'c1', side: 'enqueued', enqueuedAt: 8 });
    await expect(again()).rejects.toMatchObject({ code: 'already-waiting' });
    await matcher.setMaxSize(first.queue.sid, 1);
    await expect(again()).rejects.toMatchObject({ code: 'already-waiting' });
    // The refusals changed nothing: c1 is still the only one waiting, first in line.
    expect((await s.list(first.queue.sid, 'enqueued')).map((m) => [m.callSid, m.enqueuedAt])).toEqual([
      ['c1', 7],
    ]);
    expect(await s.position(first.queue.sid, 'enqueued', 'c1')).toMatchObject({ position: 1 });
  });

  it('looks a queue up by name again when the one it remembers is gone (the data flushed)', async () => {
    const prefix = `${REDIS_PREFIX}${uniqueName('q')}`;
    const redis = connect();
    const s = new RedisQueueStore(redis, prefix);
    const matcher = matcherOn(s, () => 9);
    const before = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'lost', callSid: 'c1' });
    if (before.status !== 'waiting') throw new Error(`expected waiting, got ${before.status}`);
    // The node now knows the queue's sid; the data goes away behind its back.
    const keys = await redis.keys(`${prefix}:*`);
    await redis.del(...keys);
    const after = await matcher.enqueue({ accountSid: ACCOUNT, queueName: 'lost', callSid: 'c2' });
    expect(after).toMatchObject({ status: 'waiting', position: 1 });
    if (after.status !== 'waiting') return;
    expect(after.queue.sid).not.toBe(before.queue.sid);
    expect(await s.findQueue(ACCOUNT, 'lost')).toEqual(after.queue);
    // And the new queue is the one remembered from then on.
    const sent = countCommands(redis);
    expect(await matcher.dial({ accountSid: ACCOUNT, queueName: 'lost', callSid: 'a1' })).toMatchObject({
      status: 'matched',
      partner: { callSid: 'c2' },
    });
    expect(sent()).toBe(1);
  });
});
