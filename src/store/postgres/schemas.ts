import { CALLQUEUE_PG_MIGRATIONS } from '../callqueue/postgres-migrations.js';
import { DESIGNER_PG_MIGRATIONS } from '../designer/postgres-migrations.js';
import { ENTERPRISE_PG_MIGRATIONS } from '../enterprise/postgres-migrations.js';
import { type PgMigrationSet, PLATFORM_MIGRATIONS } from './migrations.js';

/**
 * Every group of tables a PostgreSQL database holds, migrated together when the store opens:
 * the platform's records, then those of the designer, Call Queuing and the enterprise areas.
 */
export const POSTGRES_SCHEMAS: readonly PgMigrationSet[] = [
  PLATFORM_MIGRATIONS,
  DESIGNER_PG_MIGRATIONS,
  CALLQUEUE_PG_MIGRATIONS,
  ENTERPRISE_PG_MIGRATIONS,
];
