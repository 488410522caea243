// Public API of the sim layer.
export { formatTrace } from './format.js';
export { parseScenario, ScenarioError, validateScenario } from './load.js';
export type { TraceQueueEvent } from './queue-trace.js';
export { runScenario } from './runner.js';
export { partySchema, type Scenario, type ScenarioInput, scenarioSchema } from './schema.js';
export type { Trace, TraceCall, TraceRequest } from './trace.js';
