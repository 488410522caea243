// Public API of the store layer.
export { createMemoryStore } from './memory.js';
export type * from './ports.js';
export { closeInterruptedCalls, INTERRUPTED_CALL_CODE } from './recover.js';
export { ACCOUNT_SID_PATTERN, randomAuthToken, randomSid, type SidFactory, sequentialSids } from './sid.js';
export { createStoreSink } from './sink.js';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite/open.js';
export type * from './types.js';
