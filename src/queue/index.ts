// Public API of the queue layer.
export * from './errors.js';
export * from './events.js';
export * from './matcher.js';
export { MemoryQueueStore } from './memory-store.js';
export * from './options.js';
export * from './rejoin.js';
export * from './result.js';
export * from './sid.js';
export * from './snapshot.js';
export type { AtomicArrival, LocatedMember, QueueStore } from './store.js';
export * from './types.js';
export * from './wait-params.js';
