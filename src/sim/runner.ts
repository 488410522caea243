import { createEngine } from '../engine/engine.js';
import type { HandlerRequest, HandlerResponse } from '../engine/types.js';
import type { Scenario } from './schema.js';
import { type Trace, TraceBuilder } from './trace.js';

type AppValue = Scenario['apps'][string];

/** An in-process server for one scenario app: a fixed document, or the first matching variant. */
function appHandler(url: string, app: AppValue): (req: HandlerRequest) => HandlerResponse {
  if (typeof app === 'string') return () => ({ status: 200, contentType: 'text/xml', body: app });
  return (req) => {
    const query = new URL(req.url).searchParams;
    const value = (name: string): string | null => req.params[name] ?? query.get(name);
    const hit = app.find((v) => Object.entries(v.when ?? {}).every(([k, want]) => value(k) === want));
    if (!hit) return { status: 404, contentType: 'text/plain', body: `no variant of ${url} matches` };
    return { status: 200, contentType: hit.contentType ?? 'text/xml', body: hit.rcml };
  };
}

/**
 * Runs a validated scenario on the virtual clock until `until` seconds and returns its trace.
 * Calls still live at `until` appear with their current status.
 */
export async function runScenario(scenario: Scenario): Promise<Trace> {
  const epoch = scenario.epoch ? Date.parse(scenario.epoch) : undefined;
  const builder = new TraceBuilder(epoch ?? Date.UTC(2024, 0, 1), scenario.seed, scenario.until);
  const engine = createEngine({
    clock: 'virtual',
    seed: scenario.seed,
    epoch,
    accountSid: scenario.accountSid,
    sink: builder.sink,
    onEvent: builder.onEvent,
    defaultParty: scenario.defaultParty,
  });
  try {
    for (const [url, app] of Object.entries(scenario.apps)) engine.registerHandler(url, appHandler(url, app));
    for (const [number, config] of Object.entries(scenario.numbers)) engine.setNumber(number, config);
    for (const [address, party] of Object.entries(scenario.parties)) engine.setParty(address, party);
    const start = engine.now();
    const placed: string[] = [];
    scenario.calls.forEach((call, i) => {
      engine.clock.setTimeout(() => {
        const record =
          'api' in call
            ? engine.createCall(call.api)
            : engine.incomingCall(call.from, call.to, { callerName: call.callerName, headers: call.headers });
        placed[i] = record.sid;
      }, call.at * 1000);
    });
    for (const m of scenario.modify) {
      engine.clock.setTimeout(() => {
        const sid = m.callSid ?? placed[m.callIndex ?? -1];
        try {
          if (!sid) throw new Error(`call ${m.callIndex} has not been placed yet`);
          engine.modifyCall(sid, m.params);
        } catch (err) {
          // A refused modification is part of the run, not a crash: it shows in the trace.
          builder.refused(engine.now(), sid, err instanceof Error ? err.message : String(err));
        }
      }, m.at * 1000);
    }
    await engine.runUntil(start + scenario.until * 1000);
    // Snapshot before close(), which hangs up whatever is still live.
    return structuredClone(builder.trace);
  } finally {
    await engine.close();
  }
}
