// Public API of the designer store.
export { createMemoryDesignerStore } from './memory.js';
export type * from './ports.js';
export { postgresDesignerStore } from './postgres.js';
export { openSqliteDesignerStore } from './sqlite.js';
export type * from './types.js';
