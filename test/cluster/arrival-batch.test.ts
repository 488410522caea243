/**
 * Arrivals by name made in the same tick go to Redis as one script (`arrival-batch.ts`): fewer
 * commands, and the same outcomes as the same arrivals made one after the other.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../../src/cluster/arrival-batch.js';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { QueueMatcher } from '../../src/queue/matcher.js';
import { seededQueueSids } from '../../src/queue/sid.js';
import type { QueueSide } from '../../src/queue/types.js';
import { ACCOUNT } from '../queue/harness.js';
import { countCommands } from '../support/redis-commands.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections.splice(0)) c.disconnect();
});

/** A store on a connection of its own, and a count of the commands that connection sends. */
async function node(): Promise<{ store: RedisQueueStore; matcher: QueueMatcher; sent: () => number }> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  const store = new RedisQueueStore(redis, `${REDIS_PREFIX}${uniqueName('batch')}`);
  const matcher = new QueueMatcher({ store, clock: () => 1_000, newSid: seededQueueSids(3) });
  for (const name of ['sales', 'support']) await matcher.queue(ACCOUNT, name);
  await redis.ping();
  return { store, matcher, sent: countCommands(redis) };
}

interface Arrival {
  callSid: string;
  side: QueueSide;
  queueName: string;
}

/** What an arrival came to, without what differs between two stores (sids, times). */
async function outcomeOf(arrival: Promise<unknown>): Promise<string> {
  try {
    const out = (await arrival) as { status: string; partner?: { callSid: string }; position?: number };
    return `${out.status} ${out.partner?.callSid ?? ''} ${out.position ?? ''}`;
  } catch (err) {
    return `error ${(err as { code?: string }).code ?? String(err)}`;
  }
}

const arrival = fc.record({
  callSid: fc.constantFrom('CA1', 'CA2', 'CA3', 'CA4', 'CA5'),
  side: fc.constantFrom<QueueSide>('enqueued', 'dialer'),
  // Queues that exist: a first arrival at a new queue creates it in round trips of its own, so
  // concurrent arrivals there are not ordered by the order they were made, batched or not.
  queueName: fc.constantFrom('sales', 'support'),
});

describe.skipIf(!REDIS_URL)('arrivals of one tick', () => {
  it('go as one script per batch, answering each arrival as its own', async () => {
    const { matcher, sent } = await node();
    const before = sent();
    const arrivals = Array.from({ length: MAX_BATCH * 2 }, (_, i) =>
      matcher.arrive({
        accountSid: ACCOUNT,
        queueName: 'sales',
        callSid: `CA${i}`,
        side: i % 2 === 0 ? 'enqueued' : 'dialer',
      }),
    );
    const outcomes = await Promise.all(arrivals);
    expect(sent() - before).toBe(2);
    expect(outcomes.map((o) => o.status)).toEqual(
      Array.from({ length: MAX_BATCH * 2 }, (_, i) => (i % 2 === 0 ? 'waiting' : 'matched')),
    );
  });

  it('come to what the same arrivals made one after the other come to', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arrival, { minLength: 1, maxLength: 12 }), async (arrivals) => {
        const [together, oneByOne] = [await node(), await node()];
        const made = (m: QueueMatcher, a: Arrival) => m.arrive({ accountSid: ACCOUNT, ...a });
        const batched = await Promise.all(arrivals.map((a) => outcomeOf(made(together.matcher, a))));
        const serial: string[] = [];
        for (const a of arrivals) serial.push(await outcomeOf(made(oneByOne.matcher, a)));
        expect(batched).toEqual(serial);
      }),
      { numRuns: 25 },
    );
  });

  it('reach Redis before an operation made after them in the same tick', async () => {
    const { store, matcher } = await node();
    const queue = await matcher.queue(ACCOUNT, 'support');
    const arrived = matcher.arrive({
      accountSid: ACCOUNT,
      queueName: 'support',
      callSid: 'CA9',
      side: 'enqueued',
    });
    const left = store.remove(queue.sid, 'enqueued', 'CA9');
    expect((await arrived).status).toBe('waiting');
    expect((await left)?.member.callSid).toBe('CA9');
    expect(await store.size(queue.sid, 'enqueued')).toBe(0);
  });
});
