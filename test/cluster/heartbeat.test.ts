/**
 * The heartbeat against a real Redis: a beat renews the lease; a key gone with its membership
 * (Redis lost them) renews the epoch and tells `onLost`; a key gone after a lapse with a
 * survivor's epoch move in the database fences the node off; a later epoch in the key too.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { membersKey, nodeKey, startHeartbeat } from '../../src/cluster/heartbeat.js';
import { NodeLease } from '../../src/cluster/lease.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const TTL = 60_000;
const closers: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!REDIS_URL)('a node’s heartbeat', () => {
  const setup = async () => {
    const redis = new Redis(REDIS_URL);
    closers.push(() => redis.disconnect());
    const prefix = `${REDIS_PREFIX}${uniqueName('hb')}`;
    let now = 0;
    const lease = new NodeLease(TTL, () => now);
    const db = { epoch: 1, holder: 1 };
    let lost = 0;
    const heartbeat = await startHeartbeat(redis, {
      prefix,
      node: 'n1',
      ttlMs: TTL,
      lease,
      epoch: () => db.holder,
      // The database's compare-and-set: only the epoch's holder moves it on.
      renew: async () => {
        if (db.epoch !== db.holder) return false;
        db.epoch++;
        db.holder = db.epoch;
        return true;
      },
      onLost: () => {
        lost++;
      },
    });
    closers.push(() => heartbeat.stop());
    await heartbeat.advertise('http://n1.test');
    const fenced: string[] = [];
    lease.onFenced((why) => fenced.push(why));
    return { redis, prefix, lease, db, heartbeat, fenced, lost: () => lost, at: (t: number) => (now = t) };
  };

  it('joins with its epoch and URL, and joins again under a new epoch when Redis lost everything', async () => {
    const { redis, prefix, lease, db, heartbeat, lost } = await setup();
    expect(await redis.get(nodeKey(prefix, 'n1'))).toBe('1 http://n1.test');
    expect(await redis.hget(membersKey(prefix), 'n1')).toBe('1 http://n1.test');
    await redis.del(nodeKey(prefix, 'n1'), membersKey(prefix));
    await heartbeat.beat();
    expect(db.holder).toBe(2);
    expect(await redis.hget(membersKey(prefix), 'n1')).toBe('2 http://n1.test');
    expect(lost()).toBe(1);
    expect(lease.valid).toBe(true);
  });

  it('is fenced off when its key expired and a survivor moved its epoch on meanwhile', async () => {
    const { redis, prefix, lease, db, heartbeat, fenced, at } = await setup();
    at(TTL + 1);
    expect(lease.valid).toBe(false);
    expect(lease.whenValid()).toBeInstanceOf(Promise);
    await redis.del(nodeKey(prefix, 'n1'));
    db.epoch++; // the survivor's supersede
    await heartbeat.beat();
    expect(fenced).toEqual([expect.stringMatching(/declared dead by the cluster/)]);
    expect(lease.fenced).toBeDefined();
  });

  it('renews a lapsed lease nobody took over, and is fenced off by a later run of its node', async () => {
    const { redis, prefix, lease, db, heartbeat, fenced, at } = await setup();
    at(TTL + 1);
    await redis.del(nodeKey(prefix, 'n1'));
    let resumed = false;
    void lease.whenValid()?.then(() => {
      resumed = true;
    });
    await heartbeat.beat();
    expect(db.holder).toBe(2);
    expect(lease.valid).toBe(true);
    await Promise.resolve();
    expect(resumed).toBe(true);
    await redis.set(nodeKey(prefix, 'n1'), '9 http://elsewhere.test');
    await heartbeat.beat();
    expect(fenced).toEqual([expect.stringMatching(/started again elsewhere/)]);
  });
});
