// Public API of the RCML language layer.
export type * from './model.js';
