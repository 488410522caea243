// Public API of the Call Queuing store.
export { createMemoryCallQueueStore } from './memory.js';
export {
  type CallQueueEventRepository,
  type CallQueueNumberRepository,
  type CallQueueStore,
  PhoneNumberTakenError,
} from './ports.js';
export { postgresCallQueueStore } from './postgres.js';
export { openSqliteCallQueueStore, type SqliteCallQueueStoreOptions } from './sqlite.js';
export type * from './types.js';
