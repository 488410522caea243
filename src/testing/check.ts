import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { PropertiesSpec, VarySpec } from '../sim/check-schema.js';
import { validateScenario } from '../sim/load.js';
import { runScenario } from '../sim/runner.js';
import type { ScenarioInput } from '../sim/schema.js';
import type { Trace } from '../sim/trace.js';
import { type Arrivals, arbitraryArrivals, arbitraryCaller, type CallerBehaviour } from './callers.js';
import { FlowTrace } from './flow-trace.js';
import { type FlowProperty, type Violation, violationsOf } from './properties.js';
import { AnswerRecorder } from './replay.js';

/** What a check varies: each part is generated per run and merged into the scenario. */
export interface CallFlowVary {
  /** Behaviour of these addresses (replacing the scenario's). */
  parties?: Record<string, fc.Arbitrary<CallerBehaviour>>;
  defaultParty?: fc.Arbitrary<CallerBehaviour>;
  /** Calls added to the scenario's, with the behaviours of their callers. */
  arrivals?: ReadonlyArray<fc.Arbitrary<Arrivals>>;
}

export interface CheckCallFlowOptions {
  /** The scenario every run starts from (apps may be handler functions). */
  scenario: ScenarioInput;
  vary?: CallFlowVary;
  properties: ReadonlyArray<FlowProperty>;
  /** Scenarios to try. Default 100. */
  runs?: number;
  /** Seed of the generation. Default a random one (printed in the report). */
  seed?: number;
  /** Where to write the shrunk counterexample; false for nowhere. Default a file in the temp directory. */
  out?: string | false;
}

/** A failing run, shrunk. */
export interface Counterexample {
  scenario: ScenarioInput;
  trace: Trace;
  violations: Array<Violation & { property: string }>;
  /** The replayable scenario file, when written. */
  file?: string;
  /** The command that replays it. */
  command?: string;
}

export interface CheckResult {
  ok: boolean;
  seed: number;
  /** Scenarios run before the first failure (or all of them). */
  runs: number;
  shrinks: number;
  counterexample?: Counterexample;
  /** A human account: the seed, the properties broken and the shrunk timeline. */
  report: string;
}

/** A failed check, thrown by `assertCallFlow`; its message is the check's report. */
export class FlowAssertionError extends Error {
  constructor(
    message: string,
    readonly result?: CheckResult,
  ) {
    super(message);
    this.name = 'FlowAssertionError';
  }
}

/** The arbitraries a scenario file's `check.vary` declares, over the scenario's own parties. */
export function varyFromSpec(spec: VarySpec, scenario: ScenarioInput): CallFlowVary {
  const parties: Record<string, fc.Arbitrary<CallerBehaviour>> = {};
  for (const [address, party] of Object.entries(spec.parties ?? {}))
    parties[address] = arbitraryCaller(party, scenario.parties?.[address]);
  return {
    parties,
    defaultParty: spec.defaultParty ? arbitraryCaller(spec.defaultParty, scenario.defaultParty) : undefined,
    arrivals: (spec.arrivals ?? []).map((a) => arbitraryArrivals(a)),
  };
}

/** The scenario of one run: the base with the varied parts merged in. */
function scenarioArbitrary(base: ScenarioInput, vary: CallFlowVary = {}): fc.Arbitrary<ScenarioInput> {
  const { check: _check, ...rest } = base;
  const none = fc.constant(undefined);
  return fc
    .record({
      parties: fc.record(vary.parties ?? {}),
      defaultParty: vary.defaultParty ?? none,
      arrivals: fc.tuple(...(vary.arrivals ?? [])),
    })
    .map((v) => {
      const parties = { ...rest.parties };
      const calls = [...(rest.calls ?? [])];
      for (const a of v.arrivals as Arrivals[]) {
        Object.assign(parties, a.parties);
        calls.push(...a.calls);
      }
      Object.assign(parties, v.parties);
      const out: ScenarioInput = { ...rest, parties, calls };
      if (v.defaultParty) out.defaultParty = v.defaultParty;
      return out;
    });
}

/** The ready-made properties' settings, for the replay file's `check` section. */
function specOf(properties: ReadonlyArray<FlowProperty>): PropertiesSpec | undefined {
  const named = properties.filter((p) => p.spec);
  return named.length > 0 ? Object.assign({}, ...named.map((p) => p.spec)) : undefined;
}

/**
 * Runs `runs` scenarios generated from `scenario` and `vary` on the virtual clock and checks
 * `properties` on each trace. On a failure, fast-check shrinks the generated parts to a minimal
 * failing scenario, which is written as a scenario file that `rcml simulate` replays.
 * Deterministic for a seed.
 */
export async function checkCallFlow(options: CheckCallFlowOptions): Promise<CheckResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = options.runs ?? 100;
  const properties = options.properties;
  if (properties.length === 0) throw new TypeError('checkCallFlow: properties: name at least one');
  const details = await fc.check(
    fc.asyncProperty(scenarioArbitrary(options.scenario, options.vary), async (scenario) => {
      const trace = await runScenario(validateScenario(scenario));
      return violationsOf(trace, properties).length === 0;
    }),
    { numRuns: runs, seed },
  );
  if (!details.failed || !details.counterexample) {
    const report = `checkCallFlow: ${properties.map((p) => p.name).join('; ')}: held in ${details.numRuns} runs (seed ${seed})\n`;
    return { ok: true, seed, runs: details.numRuns, shrinks: 0, report };
  }
  const scenario = details.counterexample[0];
  const recorder = new AnswerRecorder();
  const trace = await runScenario(validateScenario({ ...scenario, apps: recorder.wrap(scenario.apps) }));
  const violations = violationsOf(trace, properties);
  const counterexample: Counterexample = { scenario, trace, violations };
  if (options.out !== false) {
    const file = options.out ?? join(tmpdir(), `rcml-counterexample-${seed}.json`);
    const spec = specOf(properties);
    const replay = {
      ...scenario,
      apps: recorder.replace(scenario.apps),
      ...(spec ? { check: { runs: 1, properties: spec } } : {}),
    };
    writeFileSync(file, JSON.stringify(replay, null, 2) + '\n');
    counterexample.file = file;
    counterexample.command = `rcml simulate ${file}`;
  }
  const error = details.errorInstance ? `${details.errorInstance}` : undefined;
  const report = failureReport(seed, details.numRuns, details.numShrinks, counterexample, error);
  return { ok: false, seed, runs: details.numRuns, shrinks: details.numShrinks, counterexample, report };
}

/** `checkCallFlow`, throwing a `FlowAssertionError` with the report when a property fails. */
export async function assertCallFlow(options: CheckCallFlowOptions): Promise<CheckResult> {
  const result = await checkCallFlow(options);
  if (!result.ok) throw new FlowAssertionError(result.report, result);
  return result;
}

function failureReport(
  seed: number,
  runs: number,
  shrinks: number,
  cx: Counterexample,
  error: string | undefined,
): string {
  const flow = new FlowTrace(cx.trace);
  const broken = [...new Set(cx.violations.map((v) => v.property))];
  const out = [
    `checkCallFlow: ${broken.length > 0 ? broken.map((p) => `"${p}"`).join(', ') : 'a property'} failed ` +
      `after ${runs} run${runs === 1 ? '' : 's'} (seed ${seed}, shrunk ${shrinks} times)`,
  ];
  if (error && cx.violations.length === 0) out.push(`  ${error}`);
  const short = new Map(cx.trace.calls.map((c, i) => [c.sid, `call${i + 1}`]));
  for (const v of cx.violations) {
    const who = v.callSid ? `${short.get(v.callSid) ?? v.callSid} ` : '';
    out.push(`  ${who}${v.message}`);
  }
  const parties = cx.scenario.parties ?? {};
  const involved = Object.entries(parties);
  if (involved.length > 0) {
    out.push('Shrunk parties:');
    for (const [address, p] of involved) out.push(`  ${address}: ${JSON.stringify(p)}`);
  }
  if (cx.file) out.push(`Shrunk scenario: ${cx.file}`, `Replay: ${cx.command}`);
  const first = cx.violations.find((v) => v.callSid)?.callSid;
  out.push(first ? `Timeline of ${short.get(first) ?? first}:` : 'Timeline:');
  out.push(flow.timeline({ callSid: first ?? undefined, maxLines: 60 }));
  return out.join('\n') + '\n';
}
