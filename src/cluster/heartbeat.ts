import type { Redis } from 'ioredis';

/** How long a node counts as alive after its last beat, by default. */
export const NODE_TTL_MS = 10_000;

/** The Redis key whose presence says `node` is alive; its value is the node's advertised URL. */
export const nodeKey = (prefix: string, node: string) => `${prefix}:node:${node}`;

/**
 * Hash of the nodes that joined, node -> advertised URL. A node in it whose key has expired died
 * without a clean stop: a survivor takes its calls over and then removes it (see `takeover.ts`).
 */
export const membersKey = (prefix: string) => `${prefix}:nodes`;

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
 * The URL `node` advertises for forwarded requests: '' while it starts (not listening yet),
 * undefined when its key has expired (it stopped or died).
 */
export async function advertisedUrl(redis: Redis, prefix: string, node: string): Promise<string | undefined> {
  return (await redis.get(nodeKey(prefix, node))) ?? undefined;
}

/** A running heartbeat. */
export interface Heartbeat {
  /** Sets the URL other nodes forward live-call requests to (beaten from now on). */
  advertise(url: string): Promise<void>;
  /** Stops beating and removes the key and the membership, so a clean stop is seen at once. */
  stop(): Promise<void>;
}

/**
 * Announces the node alive: its key set with a TTL of `ttlMs`, renewed every third of it on the
 * wall clock (the timer does not keep the process alive), so a node misses two beats before it
 * is taken for dead. The TTL must exceed the longest stall of the node's event loop: a node
 * silent for longer is taken over while it still runs.
 */
export async function startHeartbeat(
  redis: Redis,
  prefix: string,
  node: string,
  ttlMs = NODE_TTL_MS,
): Promise<Heartbeat> {
  const key = nodeKey(prefix, node);
  let url = '';
  const beat = () => redis.set(key, url, 'PX', ttlMs);
  await redis.multi().set(key, url, 'PX', ttlMs).hset(membersKey(prefix), node, url).exec();
  const timer = setInterval(() => void beat().catch(() => undefined), Math.max(1, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    advertise: async (advertised) => {
      url = advertised;
      await redis.multi().set(key, url, 'PX', ttlMs).hset(membersKey(prefix), node, url).exec();
    },
    stop: async () => {
      clearInterval(timer);
      await redis
        .multi()
        .del(key)
        .hdel(membersKey(prefix), node)
        .exec()
        .catch(() => undefined);
    },
  };
}
