import { createEngine, type Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import type { HandlerRequest, RcmlHandler } from '../engine/types.js';
import type { Scenario } from './schema.js';
import { type Trace, TraceBuilder } from './trace.js';

type AppValue = Scenario['apps'][string];

/** An in-process server for one scenario app: a fixed document, or the first matching variant. */
function appHandler(url: string, app: AppValue): RcmlHandler {
  if (typeof app === 'function') return app;
  if (typeof app === 'string') return () => ({ status: 200, contentType: 'text/xml', body: app });
  return (req: HandlerRequest) => {
    const query = new URL(req.url).searchParams;
    const value = (name: string): string | null => req.params[name] ?? query.get(name);
    const hit = app.find((v) => Object.entries(v.when ?? {}).every(([k, want]) => value(k) === want));
    if (!hit) return { status: 404, contentType: 'text/plain', body: `no variant of ${url} matches` };
    return { status: hit.status ?? 200, contentType: hit.contentType ?? 'text/xml', body: hit.rcml };
  };
}

/** A call named by a scenario entry: its sid, or the index of the `calls` entry that placed it. */
interface Target {
  callSid?: string;
  callIndex?: number;
}

/** A conference by sid, else the latest room with that name (the one a caller would join). */
function conferenceSid(engine: Engine, ref: string): string {
  if (engine.getConference(ref)) return ref;
  const rooms = engine.listConferences().filter((c) => c.friendlyName === ref);
  const room = rooms.findLast((c) => c.status !== 'completed') ?? rooms.at(-1);
  if (!room) throw new EngineError('unknown-conference', `no conference named or with sid '${ref}'`);
  return room.sid;
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
    queues: scenario.queues,
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
    // A refused operation is part of the run, not a crash: it shows in the trace.
    const schedule = (at: number, what: string, target: Target, act: (sid: string) => void): void => {
      engine.clock.setTimeout(() => {
        const sid = target.callSid ?? placed[target.callIndex ?? -1];
        try {
          if (!sid) throw new Error(`call ${target.callIndex} has not been placed yet`);
          act(sid);
        } catch (err) {
          builder.refused(engine.now(), sid, err instanceof Error ? err.message : String(err), what);
        }
      }, at * 1000);
    };
    for (const m of scenario.modify)
      schedule(m.at, 'modification', m, (sid) => engine.modifyCall(sid, m.params));
    for (const m of scenario.mute) {
      schedule(m.at, m.muted ? 'mute' : 'unmute', m, (sid) =>
        engine.muteParticipant(conferenceSid(engine, m.conference), sid, m.muted),
      );
    }
    await engine.runUntil(start + scenario.until * 1000);
    // Snapshot before close(), which hangs up whatever is still live.
    return structuredClone(builder.trace);
  } finally {
    await engine.close();
  }
}
