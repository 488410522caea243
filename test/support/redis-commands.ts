/** Counting what a Redis connection sends, for tests and benches of round trips. */
import type { Redis } from 'ioredis';

/** Counts the commands `redis` sends from now on (each one round trip, pipelined or not). */
export function countCommands(redis: Redis): () => number {
  let sent = 0;
  const original = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent++;
    return original(...args);
  }) as Redis['sendCommand'];
  return () => sent;
}
