import { readFile } from 'node:fs/promises';
import type { EngineOptions } from '../engine/engine.js';
import { parseScenario, validateScenario } from '../sim/load.js';
import { runScenario } from '../sim/runner.js';
import type { ScenarioInput } from '../sim/schema.js';
import { type Trace, TraceBuilder } from '../sim/trace.js';
import { FlowTrace } from './flow-trace.js';

/**
 * Runs a scenario (an object, whose apps may be handler functions, or the path of a scenario
 * file) on the virtual clock and returns its trace with reading helpers.
 */
export async function runFlow(scenario: ScenarioInput | string): Promise<FlowTrace> {
  const valid =
    typeof scenario === 'string'
      ? parseScenario(await readFile(scenario, 'utf8'), scenario)
      : validateScenario(scenario);
  return new FlowTrace(await runScenario(valid));
}

/** Records an engine's run as a `Trace`: give `engineOptions` to `createEngine`. */
export interface TraceRecorder {
  /** The `sink` and `onEvent` options that feed the recorder. */
  readonly engineOptions: Required<Pick<EngineOptions, 'sink' | 'onEvent'>>;
  /** A snapshot of the trace so far (`until`: the seconds elapsed, or as given). */
  trace(until?: number): Trace;
  /** The snapshot with reading helpers. */
  flow(until?: number): FlowTrace;
}

/**
 * A recorder for an engine of your own, giving the same `Trace` (and `formatTrace` timeline) as
 * `runScenario`:
 * `const rec = recordTrace(); const engine = createEngine({ seed: 1, ...rec.engineOptions });`.
 * `epoch` must be the engine's (default the engine's default, 2024-01-01); `seed` is only shown.
 */
export function recordTrace(
  options: { epoch?: number; seed?: number; now?: () => number } = {},
): TraceRecorder {
  const epoch = options.epoch ?? Date.UTC(2024, 0, 1);
  const builder = new TraceBuilder(epoch, options.seed ?? 0, 0);
  let last = epoch;
  const onEvent: TraceRecorder['engineOptions']['onEvent'] = (e) => {
    if (e.at > last) last = e.at;
    builder.onEvent(e);
  };
  const trace = (until?: number): Trace => {
    const snapshot = structuredClone(builder.trace);
    snapshot.until = until ?? Math.max(0, ((options.now?.() ?? last) - epoch) / 1000);
    return snapshot;
  };
  return {
    engineOptions: { sink: builder.sink, onEvent },
    trace,
    flow: (until) => new FlowTrace(trace(until)),
  };
}
