/**
 * Each node watches the others: every beat it reads the members of the cluster and their
 * heartbeat keys (two round trips, whatever the cluster's size); a member whose key has expired
 * died without a clean stop and is taken over (see `takeover.ts`). Deaths are told to every node
 * through Redis pub/sub.
 */
import type { Redis } from 'ioredis';
import { listenTo } from './channel.js';
import { membersKey, nodeKey } from './heartbeat.js';
import { deathChannel, type TakeoverContext, takeOver } from './takeover.js';

/**
 * Starts watching, every third of `ttlMs`; the context's `told` hears each takeover this node
 * did (and its failures). Once per TTL it also looks for orphans: nodes owning live calls that
 * are no members (Redis lost the members before they beat again) and whose key stays gone for
 * a whole TTL (a live node would have beaten again meanwhile): they are taken over too.
 */
export function watchNodes(context: TakeoverContext, ttlMs: number): { stop(): void } {
  const { redis, prefix, self, store } = context;
  let running = false;
  let ticks = 0;
  let owners: string[] = [];
  const missingSince = new Map<string, number>();
  const settle = async (node: string, orphan: boolean) => {
    try {
      const outcome = await takeOver(context, node, { orphan });
      if (outcome.status !== 'busy') missingSince.delete(node);
    } catch (error) {
      context.told?.(node, { status: 'failed', error });
    }
  };
  const tick = async () => {
    // A node that is not sure it is alive itself judges no other; nor does one that has not
    // held its lease for a TTL (it may have just come back with everyone from an outage of Redis).
    if (context.lease && context.lease.heldFor < ttlMs) return;
    const members = (await redis.hkeys(membersKey(prefix))).filter((n) => n !== self);
    if (ticks++ % 3 === 0) owners = (await store.liveOwners()).filter((n) => n !== self);
    const orphans = owners.filter((n) => !members.includes(n));
    const nodes = [...members, ...orphans];
    if (nodes.length === 0) return;
    const keys = await redis.mget(...nodes.map((n) => nodeKey(prefix, n)));
    const now = performance.now();
    for (const [i, node] of nodes.entries()) {
      if (keys[i] !== null) {
        missingSince.delete(node);
        continue;
      }
      if (i < members.length) {
        await settle(node, false);
        continue;
      }
      const since = missingSince.get(node) ?? now;
      missingSince.set(node, since);
      if (now - since >= ttlMs) await settle(node, true);
    }
  };
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void tick()
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Subscribes to the deaths published by whichever node took a dead one over; `listener` hears
 * each dead node's name on this node.
 */
export async function subscribeDeaths(
  redis: Redis,
  prefix: string,
  listener: (node: string) => void,
): Promise<{ close(): void }> {
  const { connection, subscribed } = listenTo(redis, deathChannel(prefix), listener);
  await subscribed;
  return { close: () => connection.disconnect() };
}
