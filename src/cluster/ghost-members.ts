import type { Redis } from 'ioredis';
import type { QueueStore } from '../queue/store.js';
import type { QueueMember } from '../queue/types.js';

/** Call sids asked for at once per queue (bounds the size of one HMGET). */
const CHUNK = 500;

/**
 * Removes the given calls wherever they wait in the Redis queues of `prefix` (the members of a
 * node that died: nobody may be matched with them any more). Scans the queues' member hashes,
 * which is O(queues + calls) and runs only when a node is taken over, so the arrival path keeps
 * its one round trip; each removal goes through the store, so positions stay 1..n.
 * Returns how many members it removed.
 */
export async function removeQueueMembers(
  redis: Redis,
  prefix: string,
  queues: QueueStore,
  callSids: readonly string[],
): Promise<number> {
  if (callSids.length === 0) return 0;
  const stem = `${prefix}:member:`;
  let removed = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${stem}*`, 'COUNT', 200);
    cursor = next;
    for (const key of keys) {
      const queueSid = key.slice(stem.length);
      for (let i = 0; i < callSids.length; i += CHUNK) {
        const sids = callSids.slice(i, i + CHUNK);
        const raws = await redis.hmget(key, ...sids);
        for (const raw of raws) {
          if (raw === null) continue;
          const member = JSON.parse(raw) as QueueMember;
          if (await queues.remove(queueSid, member.side, member.callSid)) removed++;
        }
      }
    }
  } while (cursor !== '0');
  return removed;
}
