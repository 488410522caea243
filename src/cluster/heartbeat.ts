import type { Redis } from 'ioredis';

/** How long a node counts as alive after its last beat. */
export const NODE_TTL_MS = 10_000;
/** Beats per TTL: a node misses two before it is taken for dead. */
const BEAT_MS = Math.floor(NODE_TTL_MS / 3);

/** The Redis key whose presence says `node` is alive. */
export const nodeKey = (prefix: string, node: string) => `${prefix}:node:${node}`;

/** The nodes alive now (their keys have not expired). */
export async function liveNodes(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', nodeKey(prefix, '*'), 'COUNT', 100);
    cursor = next;
    for (const k of keys) found.push(k.slice(nodeKey(prefix, '').length));
  } while (cursor !== '0');
  return found.sort();
}

/**
 * Announces the node alive: a key with a TTL, renewed every third of it on the wall clock (the
 * timer does not keep the process alive). `stop` removes the key, so a clean stop is seen at once.
 */
export async function startHeartbeat(
  redis: Redis,
  prefix: string,
  node: string,
): Promise<{ stop(): Promise<void> }> {
  const key = nodeKey(prefix, node);
  const beat = () => redis.set(key, String(Date.now()), 'PX', NODE_TTL_MS);
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), BEAT_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await redis.del(key).catch(() => undefined);
    },
  };
}
