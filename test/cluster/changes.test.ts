import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { changesChannel, RedisChanges } from '../../src/cluster/changes.js';
import type { ChangeNotice } from '../../src/store/changes.js';
import { REDIS_PREFIX, REDIS_URL, uniqueName } from '../support/services.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

async function node(prefix: string, id: string, errors: unknown[] = []) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const changes = await RedisChanges.start(redis, prefix, id, (err) => errors.push(err));
  closers.push(
    () => redis.disconnect(),
    () => changes.close(),
  );
  const heard: ChangeNotice[] = [];
  changes.subscribe({ changed: (n) => void heard.push(n), reset: () => undefined });
  return { redis, changes, heard };
}

describe.skipIf(!REDIS_URL)('change notices over Redis', () => {
  it('reach every other node of the prefix, not the sender nor another platform', async () => {
    const prefix = `${REDIS_PREFIX}${uniqueName('ch')}`;
    const [one, two, elsewhere] = [
      await node(prefix, 'n1'),
      await node(prefix, 'n2'),
      await node(`${prefix}_other`, 'n2'),
    ];
    const notice = { area: 'designer-app', accountSid: 'AC1', key: 'AP1' };
    await one.changes.publish(notice);
    for (const n of [one, two, elsewhere]) await n.changes.flush();
    expect(two.heard).toEqual([notice]);
    expect(one.heard).toEqual([]);
    expect(elsewhere.heard).toEqual([]);
  });

  it('ignores malformed messages; a failing listener is reported and the others still hear', async () => {
    const prefix = `${REDIS_PREFIX}${uniqueName('ch')}`;
    const errors: unknown[] = [];
    const one = await node(prefix, 'n1');
    const two = await node(prefix, 'n2', errors);
    two.changes.subscribe({
      changed: async () => {
        throw new Error('cannot read the store');
      },
      reset: () => undefined,
    });
    for (const raw of [
      'not json',
      '{"from":"n1"}',
      '{"from":"n1","area":1,"accountSid":"a","key":"k"}',
      'null',
    ]) {
      await one.redis.publish(changesChannel(prefix), raw);
    }
    await one.changes.publish({ area: 'callqueue-number', accountSid: 'AC1', key: '+15550100' });
    await two.changes.flush();
    expect(two.heard).toEqual([{ area: 'callqueue-number', accountSid: 'AC1', key: '+15550100' }]);
    expect(errors).toEqual([new Error('cannot read the store')]);
  });
});
