import type { PropertiesSpec } from '../sim/check-schema.js';
import type { Trace, TraceCall } from '../sim/trace.js';
import { FINAL_STATUSES, FlowTrace } from './flow-trace.js';

/** One way a run broke a property: the call it concerns (if any), when, and what happened. */
export interface Violation {
  callSid: string | null;
  at?: number;
  message: string;
}

/** A property of every run: `check` returns the violations (empty when the run holds it). */
export interface FlowProperty {
  name: string;
  /** Settings of a ready-made property as in a scenario file's `check.properties`. */
  spec?: PropertiesSpec;
  check(trace: FlowTrace): Violation[];
}

/**
 * A property from a function over the trace: it holds when the function returns true,
 * undefined or an empty list; a string or false is one violation; a list is the violations.
 */
export function property(
  name: string,
  fn: (trace: FlowTrace) => boolean | undefined | string | Violation[],
): FlowProperty {
  return {
    name,
    check(trace) {
      const result = fn(trace);
      if (result === undefined || result === true) return [];
      if (result === false) return [{ callSid: null, message: `${name} does not hold` }];
      if (typeof result === 'string') return [{ callSid: null, message: result }];
      return result;
    },
  };
}

/** Every call (legs included) has ended by the end of the run. */
export function everyCallEnds(): FlowProperty {
  return {
    name: 'every call ends',
    spec: { everyCallEnds: true },
    check: ({ trace }) =>
      trace.calls
        .filter((c) => !FINAL_STATUSES.has(c.status))
        .map((c) => ({
          callSid: c.sid,
          at: trace.until,
          message: `${c.from} -> ${c.to} is still ${c.status} at ${trace.until} s`,
        })),
  };
}

/** Seconds a call lasted (or has lasted by the end of the run), from its first status. */
function lifetime(call: TraceCall, until: number): number {
  const first = call.statuses[0]?.at ?? 0;
  const end = FINAL_STATUSES.has(call.status) ? (call.statuses.at(-1)?.at ?? until) : until;
  return end - first;
}

/** No call lasts longer than `seconds` (from its first status to its end, or to the end of the run). */
export function maxCallDuration(seconds: number): FlowProperty {
  return {
    name: `no call longer than ${seconds} s`,
    spec: { maxCallDuration: seconds },
    check: ({ trace }) =>
      trace.calls
        .filter((c) => lifetime(c, trace.until) > seconds)
        .map((c) => ({
          callSid: c.sid,
          at: (c.statuses[0]?.at ?? 0) + seconds,
          message: `${c.from} -> ${c.to} lasted ${lifetime(c, trace.until)} s (more than ${seconds} s)`,
        })),
  };
}

/**
 * Every answered call placed by the scenario fetches one of `urls` (a URL matches with any
 * query), unless the caller hung up first.
 */
export function reachesOneOf(urls: ReadonlyArray<string>): FlowProperty {
  return {
    name: `every call reaches one of ${urls.join(', ')}`,
    spec: { reachesOneOf: [...urls] },
    check(flow) {
      return flow.topCalls
        .filter((c) => c.statuses.some((s) => s.status === 'in-progress'))
        .filter((c) => c.endedBy !== 'caller')
        .filter((c) => !urls.some((u) => flow.reached(c.sid, u)))
        .map((c) => ({
          callSid: c.sid,
          message: `${c.from} -> ${c.to} never fetched ${urls.join(' or ')} (it fetched ${[...new Set(flow.urlsOf(c.sid))].join(', ') || 'nothing'})`,
        }));
    },
  };
}

/** Each queue side serves its members first come, first served. */
export function queueFifo(): FlowProperty {
  return {
    name: 'queue FIFO held',
    spec: { queueFifo: true },
    check({ trace }) {
      const sides = new Map<string, string[]>();
      const side = (queueSid: string, name: string): string[] => {
        const key = `${queueSid} ${name}`;
        let list = sides.get(key);
        if (!list) {
          list = [];
          sides.set(key, list);
        }
        return list;
      };
      const remove = (list: string[], sid: string): void => {
        const i = list.indexOf(sid);
        if (i >= 0) list.splice(i, 1);
      };
      const out: Violation[] = [];
      for (const e of trace.queueEvents) {
        if (e.type === 'enqueue' || e.type === 'rejoin') {
          const list = side(e.queueSid, e.side);
          if (!list.includes(e.callSid)) list.push(e.callSid);
        } else if (e.type === 'leave' || e.type === 'timeout' || e.type === 'drop') {
          remove(side(e.queueSid, e.side), e.callSid);
        } else if (e.type === 'match') {
          const list = side(e.queueSid, e.waiting.side);
          if (list[0] !== undefined && list[0] !== e.waiting.callSid) {
            out.push({
              callSid: e.waiting.callSid,
              at: e.at,
              message: `'${e.queueName}': ${e.arriving.callSid} took ${e.waiting.callSid} while ${list[0]} had waited longer`,
            });
          }
          remove(list, e.waiting.callSid);
        }
      }
      return out;
    },
  };
}

/** No call is bridged, matched or connected with itself. */
export function noSelfBridge(): FlowProperty {
  return {
    name: 'no bridge of a call with itself',
    spec: { noSelfBridge: true },
    check({ trace }) {
      const out: Violation[] = [];
      for (const c of trace.connections) {
        if (c.type === 'bridge' && c.action === 'start' && c.callSid === c.peerSid)
          out.push({ callSid: c.callSid, at: c.at, message: `${c.callSid} bridged with itself` });
      }
      for (const e of trace.queueEvents) {
        const pair =
          e.type === 'match'
            ? [e.waiting.callSid, e.arriving.callSid]
            : e.type === 'bridge'
              ? [e.callSid, e.partnerCallSid]
              : undefined;
        if (pair && pair[0] === pair[1])
          out.push({
            callSid: pair[0]!,
            at: e.at,
            message: `'${e.queueName}': ${pair[0]} ${e.type} with itself`,
          });
      }
      return out;
    },
  };
}

/** Result parameters an action request of each verb carries (one of each inner list). */
const ACTION_RESULTS: Record<string, string[][]> = {
  Gather: [['Digits', 'SpeechResult']],
  Record: [['RecordingUrl'], ['RecordingDuration']],
  Dial: [['DialCallStatus']],
  Enqueue: [['QueueResult']],
};

/** Every action request carries the result parameters of the verb that made it. */
export function actionResults(): FlowProperty {
  return {
    name: 'every action request carries its result parameters',
    spec: { actionResults: true },
    check({ trace }) {
      const calls = new Map(trace.calls.map((c) => [c.sid, c]));
      const out: Violation[] = [];
      for (const r of trace.requests) {
        if (r.kind !== 'action' || r.callSid === null) continue;
        const verb = calls
          .get(r.callSid)
          ?.verbs.filter((v) => !v.parent && v.at <= r.at)
          .at(-1)?.verb;
        const required = verb ? ACTION_RESULTS[verb] : undefined;
        const missing = required?.filter((names) => !names.some((n) => n in r.params));
        if (missing && missing.length > 0) {
          out.push({
            callSid: r.callSid,
            at: r.at,
            message: `action ${r.url} of <${verb}> lacks ${missing.map((m) => m.join(' or ')).join(', ')}`,
          });
        }
      }
      return out;
    },
  };
}

/** No notification of level error (fetch failures, invalid RCML, unknown numbers...). */
export function noErrorNotifications(): FlowProperty {
  return {
    name: 'no notification of level error',
    spec: { noErrorNotifications: true },
    check: ({ trace }) =>
      trace.notifications
        .filter((n) => n.level === 'error')
        .map((n) => ({ callSid: n.callSid, at: n.at, message: `error ${n.code}: ${n.message}` })),
  };
}

/** The ready-made properties a scenario file's `check.properties` names. */
export function propertiesFromSpec(spec: PropertiesSpec): FlowProperty[] {
  const out: FlowProperty[] = [];
  if (spec.everyCallEnds) out.push(everyCallEnds());
  if (spec.maxCallDuration !== undefined) out.push(maxCallDuration(spec.maxCallDuration));
  if (spec.reachesOneOf) out.push(reachesOneOf(spec.reachesOneOf));
  if (spec.queueFifo) out.push(queueFifo());
  if (spec.noSelfBridge) out.push(noSelfBridge());
  if (spec.actionResults) out.push(actionResults());
  if (spec.noErrorNotifications) out.push(noErrorNotifications());
  return out;
}

/** Every violation of `properties` in a trace, each with its property's name. */
export function violationsOf(
  trace: Trace,
  properties: ReadonlyArray<FlowProperty>,
): Array<Violation & { property: string }> {
  const flow = new FlowTrace(trace);
  return properties.flatMap((p) => p.check(flow).map((v) => ({ ...v, property: p.name })));
}
