import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeKey } from '../../src/cluster/heartbeat.js';
import { subscribeDeaths } from '../../src/cluster/node-watch.js';
import { RedisQueueStore } from '../../src/cluster/redis-queue-store.js';
import { claimRoom } from '../../src/cluster/room-claims.js';
import { type TakeoverContext, takeOver } from '../../src/cluster/takeover.js';
import { FencedError } from '../../src/store/postgres/leases.js';
import { INTERRUPTED_CALL_CODE } from '../../src/store/recover.js';
import { ACCOUNT_A, call } from '../store/fixtures.js';
import { eventually } from '../support/cluster.js';
import { openScratchPostgres, PG_URL, REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const closers: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!PG_URL || !REDIS_URL)('taking over a dead node', () => {
  it('closes its calls and removes its queue members once, whichever survivors race for it', async () => {
    const schema = uniqueName('s');
    const prefix = `${REDIS_PREFIX}${uniqueName('t')}`;
    const dead = await openScratchPostgres({ schema, nodeId: 'dead' });
    const redis = new Redis(REDIS_URL);
    closers.push(() => redis.disconnect());
    await redis.hset(`${prefix}:nodes`, 'dead', '');
    closers.push(() => dead.close());
    const live = { status: 'in-progress', endTime: undefined, duration: undefined } as const;
    await dead.calls.put(call(1, live));
    await dead.calls.put(call(2, { status: 'ringing', startTime: undefined, endTime: undefined }));
    // A room of the dead node whose one participant was its call 1.
    const room = {
      sid: `CF${'1'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      friendlyName: 'sales',
      status: 'in-progress' as const,
      dateCreated: 1,
      dateUpdated: 1,
      participants: [
        {
          callSid: call(1).sid,
          muted: false,
          hold: false,
          startConferenceOnEnter: true,
          endConferenceOnExit: false,
          joinedAt: 1,
        },
      ],
    };
    await dead.conferences.put(room);
    await claimRoom(redis, prefix, ACCOUNT_A, 'sales', { node: 'dead', sid: room.sid });
    const queues = new RedisQueueStore(redis, prefix);
    const queue = await queues.ensureQueue({
      sid: 'QU1',
      accountSid: ACCOUNT_A,
      name: 'q',
      maxSize: 9,
      dateCreated: 1,
    });
    await queues.enqueue(queue.sid, { callSid: call(2).sid, side: 'enqueued', enqueuedAt: 1 });
    await queues.enqueue(queue.sid, { callSid: 'CAother', side: 'enqueued', enqueuedAt: 2 });
    const heard: string[] = [];
    const deaths = await subscribeDeaths(redis, prefix, (node) => heard.push(node));
    closers.push(() => deaths.close());

    const note = {
      sid: `NO${'9'.repeat(32)}`,
      accountSid: ACCOUNT_A,
      callSid: call(1).sid,
      code: '11200',
      log: 1 as const,
      message: 'late',
      dateCreated: 5,
    };
    const survivor = async (self: string): Promise<TakeoverContext> => {
      const store = await openScratchPostgres({ schema, nodeId: self });
      closers.push(() => store.close());
      return { redis, prefix, self, store, queues, lockMs: 5000 };
    };
    // A node whose heartbeat is still there is not taken over.
    await redis.set(nodeKey(prefix, 'dead'), '', 'PX', 5000);
    const [s1, s2] = await Promise.all([survivor('s1'), survivor('s2')]);
    expect(await takeOver(s1, 'dead')).toEqual({ status: 'alive' });
    await redis.del(nodeKey(prefix, 'dead'));

    const outcomes = await Promise.all([takeOver(s1, 'dead'), takeOver(s2, 'dead'), takeOver(s1, 'dead')]);
    const done = outcomes.filter((o) => o.status === 'done');
    expect(done).toHaveLength(1);
    expect(done[0]).toEqual({ status: 'done', calls: [call(1).sid, call(2).sid], members: 1 });
    expect(outcomes.filter((o) => o.status === 'busy')).toHaveLength(2);
    // Too late for the others: nothing is left to close.
    expect(await takeOver(s2, 'dead')).toEqual({ status: 'done', calls: [], members: 0 });

    // The dead node is fenced off: a write it still makes (it was only frozen) is refused.
    const fenced: string[] = [];
    dead.lease?.onFenced((err) => fenced.push(err.message));
    await expect(dead.calls.put(call(1, live))).rejects.toThrow(FencedError);
    await expect(dead.notifications.put(note)).rejects.toThrow(FencedError);
    expect(fenced).toEqual([expect.stringMatching(/node dead no longer holds epoch \d+/)]);
    expect(await s1.store.calls.get(ACCOUNT_A, call(1).sid)).toMatchObject({ status: 'completed' });
    expect(await s1.store.calls.get(ACCOUNT_A, call(2).sid)).toMatchObject({ status: 'failed', duration: 0 });
    expect(await s2.store.conferences.get(ACCOUNT_A, room.sid)).toMatchObject({
      status: 'completed',
      participants: [],
    });
    // Its room's name is free for the next caller, on any node.
    expect(await claimRoom(redis, prefix, ACCOUNT_A, 'sales', { node: 's1', sid: 'CFnext' })).toEqual({
      node: 's1',
      sid: 'CFnext',
    });
    const notes = await s1.store.notifications.list({ accountSid: ACCOUNT_A, offset: 0, limit: 10 });
    expect(notes.items.map((n) => [n.callSid, n.code]).sort()).toEqual([
      [call(1).sid, INTERRUPTED_CALL_CODE],
      [call(2).sid, INTERRUPTED_CALL_CODE],
    ]);
    expect(notes.items[0].message).toMatch(/when node dead stopped answering; marked \w+ by node s[12]/);
    expect(await queues.position(queue.sid, 'enqueued', 'CAother')).toMatchObject({ position: 1 });
    expect(await queues.size(queue.sid, 'enqueued')).toBe(1);
    // Told once, though taken over twice.
    await eventually('the death to be heard', async () => (heard.length > 0 ? heard : undefined));
    await redis.publish(`${prefix}:node-dead`, 'marker');
    await eventually('the marker', async () => (heard.includes('marker') ? heard : undefined));
    expect(heard).toEqual(['dead', 'marker']);
  });
});
