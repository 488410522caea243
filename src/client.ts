/** `rcml-engine/client`: a typed client of the platform's REST API and `/sim` controls. */
export * from './client/index.js';
