/** `rcml-engine/testing`: fast-check arbitraries and test harnesses for users' own tests. */

export * from './rcml/testing.js';
