/** `rcml-engine/testing`: fast-check arbitraries and test harnesses for users' own tests. */

export { arbitraryProject } from './designer/arbitraries.js';
export * from './rcml/testing.js';
export type {
  ArrivalsSpec,
  CheckSpec,
  KeyPressSpec,
  PartySpec,
  PropertiesSpec,
  SpeechSpec,
  VarySpec,
} from './sim/check-schema.js';
export { formatTrace } from './sim/format.js';
export type { Trace, TraceCall, TraceRequest } from './sim/trace.js';
export { TraceBuilder } from './sim/trace.js';
export * from './testing/index.js';
