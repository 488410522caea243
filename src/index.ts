/**
 * rcml-engine: RCML language, Visual Designer compiler, call engine on a virtual clock,
 * FIFO call queues and the platform's REST resources.
 */

export * from './api/index.js';
export * from './designer/index.js';
export * from './engine/index.js';
export * from './load/index.js';
export * from './queue/index.js';
export * from './rcml/index.js';
export * from './sim/index.js';
export * from './store/index.js';
export * from './taskrouter/index.js';
export * from './telephony/index.js';
