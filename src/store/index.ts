// Public API of the store layer.
export * from './callqueue/index.js';
export { type ChangeListener, type ChangeNotice, localChanges, type SharedChanges } from './changes.js';
export {
  type ClientDirectory,
  type ClientDirectoryOptions,
  type DirectoryEntry,
  openClientDirectory,
} from './client-directory.js';
export {
  authTokenMatches,
  hashAuthToken,
  newAccount,
  type RotatedCredentials,
  randomAuthToken,
  randomSigningKey,
  rotateAuthToken,
} from './credentials.js';
export * from './designer/index.js';
export * from './enterprise/index.js';
export { createMemoryStore } from './memory.js';
export type * from './ports.js';
export { DuplicateLoginError } from './ports.js';
export {
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './postgres/open.js';
export { closeInterruptedCalls, closeInterruptedRooms, INTERRUPTED_CALL_CODE } from './recover.js';
export { ACCOUNT_SID_PATTERN, randomSid, type SidFactory, sequentialSids } from './sid.js';
export { createStoreSink, type StoreSink } from './sink.js';
export { type DataDirectoryLock, DataDirectoryLockedError, lockDataDirectory } from './sqlite/lock.js';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite/open.js';
export type * from './types.js';
export {
  type Committer,
  StoreOverflowError,
  StoreUnavailableError,
  WriteQueue,
  type WriteQueueOptions,
} from './write-queue.js';
