/** `rcml-engine/testing`: fast-check arbitraries and test harnesses for users' own tests. */

export { arbitraryProject } from './designer/arbitraries.js';
export * from './rcml/testing.js';
