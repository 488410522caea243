// Public API of the call engine.
export * from './records.js';
