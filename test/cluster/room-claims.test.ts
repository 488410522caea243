/**
 * Conference room names across a loss of Redis's data, against a real Redis: the room that
 * outlived the loss claims its name again inside the reclaim window its node's beat opened, and
 * a node opening a room of that name meanwhile waits the window out and is given the surviving
 * room's claim (its caller joins that room), whatever the order the two nodes reach Redis in.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { membersKey, reclaimWindowKey, startHeartbeat } from '../../src/cluster/heartbeat.js';
import { NodeLease } from '../../src/cluster/lease.js';
import { claimRoom } from '../../src/cluster/room-claims.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const TTL = 900;
const ACCOUNT = `AC${'3'.repeat(32)}`;
const closers: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!REDIS_URL)('room name claims after Redis lost its data', () => {
  const setup = async () => {
    const redis = new Redis(REDIS_URL);
    closers.push(() => redis.disconnect());
    const prefix = `${REDIS_PREFIX}${uniqueName('rc')}`;
    const beating = async (node: string) => {
      const heartbeat = await startHeartbeat(redis, {
        prefix,
        node,
        ttlMs: TTL,
        lease: new NodeLease(TTL),
        epoch: () => 1,
        renew: async () => true,
      });
      closers.push(() => heartbeat.stop());
      return heartbeat;
    };
    const claim = (node: string, sid: string, mode: Parameters<typeof claimRoom>[6]) =>
      claimRoom(redis, prefix, ACCOUNT, 'lobby', { node, sid }, undefined, mode);
    /** Redis restarted empty: every key of the cluster gone. */
    const lose = async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    };
    return { redis, prefix, beating, claim, lose };
  };

  it('gives the name back to the room that outlived the loss, not to the room opened meanwhile', async () => {
    const { redis, prefix, beating, claim, lose } = await setup();
    const a = await beating('A');
    const b = await beating('B');
    expect(await claim('A', 'CF1', { kind: 'new', ttlMs: TTL })).toEqual({ node: 'A', sid: 'CF1' });

    await lose();
    // B opens a room of the name before any node has beaten since the loss: it is no member.
    const opened = claim('B', 'CF2', { kind: 'new', ttlMs: TTL });
    // B's beat finds out first and opens the window; A's comes later and A claims its room again.
    await b.beat();
    expect(await redis.pttl(reclaimWindowKey(prefix))).toBeGreaterThan(0);
    await a.beat();
    expect(await redis.hkeys(membersKey(prefix))).toEqual(expect.arrayContaining(['A', 'B']));
    expect(await claim('A', 'CF1', { kind: 'again' })).toEqual({ node: 'A', sid: 'CF1' });
    // B's caller joins A's room.
    expect(await opened).toEqual({ node: 'A', sid: 'CF1' });
    expect(await redis.get(`${prefix}:room:${ACCOUNT}:lobby`)).toBe('A CF1');
  });

  it('claims a new name at once while the cluster’s data is intact', async () => {
    const { beating, claim } = await setup();
    await beating('A');
    expect(await claim('A', 'CF7', { kind: 'new', ttlMs: 60_000 })).toEqual({ node: 'A', sid: 'CF7' });
    expect(await claim('B', 'CF8', { kind: 'free' })).toEqual({ node: 'A', sid: 'CF7' });
  });
});
