import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openClusterBackends } from '../../src/cluster/backends.js';
import { PG_URL, REDIS_PREFIX, REDIS_URL } from '../support/services.js';

describe.skipIf(!PG_URL || !REDIS_URL)('readiness checks of the cluster backends', () => {
  it('pass while PostgreSQL and Redis answer, and fail once each is gone', async () => {
    const backends = await openClusterBackends({
      databaseUrl: PG_URL,
      redisUrl: REDIS_URL,
      nodeId: `ready-${randomBytes(3).toString('hex')}`,
      redisPrefix: `${REDIS_PREFIX}ready`,
    });
    expect(Object.keys(backends.checks).sort()).toEqual(['lease', 'postgres', 'redis']);
    await backends.checks.postgres?.();
    await backends.checks.redis?.();
    await backends.close();
    await expect(backends.checks.redis?.()).rejects.toThrow();
    await backends.store.close();
    await expect(backends.checks.postgres?.()).rejects.toThrow();
  });

  it('has only the PostgreSQL check without Redis', async () => {
    const backends = await openClusterBackends({ databaseUrl: PG_URL, nodeId: 'ready-pg' });
    expect(Object.keys(backends.checks)).toEqual(['postgres']);
    await backends.checks.postgres?.();
    await backends.close();
    await backends.store.close();
  });
});
