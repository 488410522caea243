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

/** Starts watching; the context's `told` hears each takeover this node did (and its failures). */
export function watchNodes(context: TakeoverContext, intervalMs: number): { stop(): void } {
  const { redis, prefix, self } = context;
  let running = false;
  const tick = async () => {
    const nodes = (await redis.hkeys(membersKey(prefix))).filter((n) => n !== self);
    if (nodes.length === 0) return;
    const keys = await redis.mget(...nodes.map((n) => nodeKey(prefix, n)));
    for (const [i, node] of nodes.entries()) {
      if (keys[i] !== null) continue;
      try {
        await takeOver(context, node);
      } catch (error) {
        context.told?.(node, { status: 'failed', error });
      }
    }
  };
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
