/** Where `rcml serve` keeps the records of the designer, Call Queuing and the enterprise areas. */
import type { CallQueueStore } from '../../store/callqueue/ports.js';
import { postgresCallQueueStore } from '../../store/callqueue/postgres.js';
import { openSqliteCallQueueStore } from '../../store/callqueue/sqlite.js';
import type { DesignerStore } from '../../store/designer/ports.js';
import { postgresDesignerStore } from '../../store/designer/postgres.js';
import { openSqliteDesignerStore } from '../../store/designer/sqlite.js';
import type { EnterpriseStore } from '../../store/enterprise/ports.js';
import { postgresEnterpriseStore } from '../../store/enterprise/postgres.js';
import { openSqliteEnterpriseStore } from '../../store/enterprise/sqlite.js';
import type { PostgresStore } from '../../store/postgres/open.js';

export interface ServiceStores {
  designer: DesignerStore;
  callQueue: CallQueueStore;
  enterprise: EnterpriseStore;
}

/**
 * In the platform's PostgreSQL database when there is one (every node of a cluster then sees
 * the same applications, media, numbers and enterprise records), else in SQLite files of the
 * data directory. A failure closes what was already opened.
 */
export async function openServiceStores(data: string, postgres?: PostgresStore): Promise<ServiceStores> {
  if (postgres) {
    const c = postgres.connection;
    return {
      designer: postgresDesignerStore(c),
      callQueue: postgresCallQueueStore(c),
      enterprise: postgresEnterpriseStore(c),
    };
  }
  const opened: Array<{ close(): Promise<void> }> = [];
  const open = <T extends { close(): Promise<void> }>(store: T) => {
    opened.push(store);
    return store;
  };
  try {
    return {
      designer: open(openSqliteDesignerStore({ dir: data })),
      callQueue: open(openSqliteCallQueueStore({ dir: data })),
      enterprise: open(openSqliteEnterpriseStore({ dir: data })),
    };
  } catch (err) {
    for (const store of opened) await store.close();
    throw err;
  }
}
