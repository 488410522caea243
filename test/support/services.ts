/** The services of this test run (see `global-services.ts`), for tests that need them. */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/open.js';

/** Scratch database URL of this run, or '' when PostgreSQL is absent (its tests skip). */
export const PG_URL = inject('pgUrl');
export const REDIS_URL = inject('redisUrl');
export const REDIS_PREFIX = inject('redisPrefix');

/** A name no other store of this run uses. */
export const uniqueName = (stem: string) => `${stem}_${process.pid}_${randomBytes(5).toString('hex')}`;

/** An empty PostgreSQL store in a schema of its own. */
export function openScratchPostgres(
  options: { nodeId?: string; schema?: string } = {},
): Promise<PostgresStore> {
  return openPostgresStore({
    url: PG_URL,
    schema: options.schema ?? uniqueName('s'),
    nodeId: options.nodeId,
    poolSize: 4,
  });
}
