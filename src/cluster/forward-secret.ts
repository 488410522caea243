/**
 * The secret the nodes of a cluster sign forwarded requests with (see `api/cluster-forward.ts`).
 * It lives in Redis, which every node already trusts with its queues, liveness and signals:
 * whoever can write there controls the cluster anyway, so the secret needs no configuration of
 * its own. The first node to start draws it (`SET NX`); every node reads it at start and again
 * every `refreshMs`, so nodes agree again soon after Redis lost it.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Key of the secret: 32 random bytes, hex. */
export const forwardSecretKey = (prefix: string) => `${prefix}:forward-secret`;

/** The cluster's secret, drawn and stored when there is none yet; one round trip. */
export async function loadForwardSecret(redis: Redis, prefix: string): Promise<string> {
  const key = forwardSecretKey(prefix);
  const replies = await redis.multi().set(key, randomBytes(32).toString('hex'), 'NX').get(key).exec();
  const secret = replies?.[1]?.[1];
  if (typeof secret !== 'string' || secret === '') throw new Error(`no forward secret at ${key}`);
  return secret;
}

/** Keeps the secret current: `get()` answers at once, a timer re-reads it every `refreshMs`. */
export async function watchForwardSecret(
  redis: Redis,
  prefix: string,
  refreshMs: number,
): Promise<{ get(): string; refresh(): void; stop(): void }> {
  let secret = await loadForwardSecret(redis, prefix);
  const refresh = () => {
    loadForwardSecret(redis, prefix).then(
      (s) => {
        secret = s;
      },
      () => undefined,
    );
  };
  const timer = setInterval(refresh, refreshMs);
  timer.unref();
  // `refresh`: at once, when Redis is known to have lost it (the node that draws it first wins).
  return { get: () => secret, refresh, stop: () => clearInterval(timer) };
}
