// Public API of the enterprise store.
export { createMemoryEnterpriseStore } from './memory.js';
export * from './ports.js';
export { postgresEnterpriseStore } from './postgres.js';
export { openSqliteEnterpriseStore, type SqliteEnterpriseStoreOptions } from './sqlite.js';
export type * from './types.js';
