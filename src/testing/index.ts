// The call-flow testing toolkit behind `rcml-engine/testing` and `rcml check`.
export { type CallExpectation, expectFlow, FlowExpectation } from './assertions.js';
export {
  type Arrivals,
  arbitraryArrivals,
  arbitraryCaller,
  arbitraryHangup,
  arbitraryKeyPresses,
  arbitraryOutcome,
  arbitrarySpeech,
  arbitraryTime,
  type CallerBehaviour,
} from './callers.js';
export {
  assertCallFlow,
  type CallFlowVary,
  type CheckCallFlowOptions,
  type CheckResult,
  type Counterexample,
  checkCallFlow,
  FlowAssertionError,
  varyFromSpec,
} from './check.js';
export { type CallRef, FINAL_STATUSES, FlowTrace, flowTrace, queueEventCalls } from './flow-trace.js';
export { recordTrace, runFlow, type TraceRecorder } from './harness.js';
export {
  actionResults,
  everyCallEnds,
  type FlowProperty,
  maxCallDuration,
  noErrorNotifications,
  noSelfBridge,
  propertiesFromSpec,
  property,
  queueFifo,
  reachesOneOf,
  type Violation,
  violationsOf,
} from './properties.js';
