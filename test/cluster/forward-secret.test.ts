import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { forwardSecretKey, loadForwardSecret, watchForwardSecret } from '../../src/cluster/forward-secret.js';
import { eventually } from '../support/cluster.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers.splice(0).reverse()) close();
});

describe.skipIf(!REDIS_URL)('the secret nodes sign forwarded requests with', () => {
  it('is drawn once and read alike by every node, and drawn again by all once Redis lost it', async () => {
    const prefix = `${REDIS_PREFIX}${uniqueName('f')}`;
    const redis = new Redis(REDIS_URL);
    closers.push(() => redis.disconnect());
    const nodes = await Promise.all([1, 2, 3].map(() => watchForwardSecret(redis, prefix, 50)));
    for (const node of nodes) closers.push(() => node.stop());
    const first = nodes[0]?.get() as string;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(nodes.map((n) => n.get())).toEqual([first, first, first]);
    expect(await loadForwardSecret(redis, prefix)).toBe(first);

    await redis.del(forwardSecretKey(prefix));
    const again = await eventually('a new secret every node reads', async () => {
      const now = nodes.map((n) => n.get());
      return now[0] !== first && now.every((s) => s === now[0]) ? now[0] : undefined;
    });
    expect(await redis.get(forwardSecretKey(prefix))).toBe(again);
    await redis.del(forwardSecretKey(prefix));
  });
});
