import type { TraceQueueEvent } from '../sim/queue-trace.js';
import type { Trace, TraceCall, TraceRequest } from '../sim/trace.js';

/** Statuses a call ends in. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set([
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
]);

/**
 * A call named in a test: its index among the calls placed by the scenario (top-level calls,
 * in the order they started), its sid, or `{ from }` / `{ to }` (the first such top-level call).
 */
export type CallRef = number | string | { from: string } | { to: string };

/**
 * Reading helpers over a trace, for tests: find a call, its requests, the verbs it ran, its
 * queue events, its final status, and the part of the timeline about it.
 */
export class FlowTrace {
  constructor(readonly trace: Trace) {}

  /** Calls placed by the scenario (no parent), in the order they started. */
  get topCalls(): TraceCall[] {
    return this.trace.calls.filter((c) => c.parentCallSid === null);
  }

  /** The call named by `ref`; throws an error listing the calls when there is none. */
  call(ref: CallRef): TraceCall {
    const found = this.findCall(ref);
    if (found) return found;
    const known = this.trace.calls.map((c) => `${c.sid} ${c.from} -> ${c.to}`).join(', ') || 'none';
    throw new Error(`no call ${JSON.stringify(ref)} in the trace (calls: ${known})`);
  }

  /** The call named by `ref`, or undefined. */
  findCall(ref: CallRef): TraceCall | undefined {
    if (typeof ref === 'number') return this.topCalls[ref];
    if (typeof ref === 'string') return this.trace.calls.find((c) => c.sid === ref);
    if ('from' in ref) return this.topCalls.find((c) => c.from === ref.from);
    return this.topCalls.find((c) => c.to === ref.to);
  }

  /** Child calls (Dial legs) of a call. */
  legsOf(ref: CallRef): TraceCall[] {
    const sid = this.call(ref).sid;
    return this.trace.calls.filter((c) => c.parentCallSid === sid);
  }

  /** Requests the engine made for a call, in order. */
  requestsOf(ref: CallRef): TraceRequest[] {
    const sid = this.call(ref).sid;
    return this.trace.requests.filter((r) => r.callSid === sid);
  }

  /** URLs a call fetched (query included), in order. */
  urlsOf(ref: CallRef): string[] {
    return this.requestsOf(ref).map((r) => r.url);
  }

  /** True when the call fetched `url` (or a URL starting with it followed by `?`). */
  reached(ref: CallRef, url: string): boolean {
    return this.urlsOf(ref).some((u) => u === url || u.startsWith(`${url}?`));
  }

  /** Names of the verbs a call ran, nested ones as `Gather>Say`. */
  verbsOf(ref: CallRef): string[] {
    return this.call(ref).verbs.map((v) => (v.parent ? `${v.parent}>${v.verb}` : v.verb));
  }

  /** Queue events that concern a call (either side of a match or bridge). */
  queueEventsOf(ref: CallRef): TraceQueueEvent[] {
    const sid = this.call(ref).sid;
    return this.trace.queueEvents.filter((e) => queueEventCalls(e).includes(sid));
  }

  /** A call's status at the end of the run. */
  finalStatus(ref: CallRef): TraceCall['status'] {
    return this.call(ref).status;
  }

  /** True when the call has ended (completed, busy, failed, no-answer or canceled). */
  ended(ref: CallRef): boolean {
    return FINAL_STATUSES.has(this.call(ref).status);
  }

  /**
   * The timeline as text, like `rcml simulate` prints it: all of it, or only the lines of
   * `callSid` (and its legs), or the lines within `seconds` of `around`.
   */
  timeline(
    options: { callSid?: string | null; around?: number; seconds?: number; maxLines?: number } = {},
  ): string {
    const short = new Map(this.trace.calls.map((c, i) => [c.sid, `call${i + 1}`]));
    const family = options.callSid
      ? new Set([
          options.callSid,
          ...this.trace.calls.filter((c) => c.parentCallSid === options.callSid).map((c) => c.sid),
        ])
      : undefined;
    const span = options.seconds ?? 10;
    const lines = this.trace.timeline.filter(
      (l) =>
        (!family || (l.callSid !== null && family.has(l.callSid))) &&
        (options.around === undefined || Math.abs(l.at - options.around) <= span),
    );
    const text = lines.map((l) => {
      const who = l.callSid ? (short.get(l.callSid) ?? l.callSid) : '-';
      return `${l.at.toFixed(3).padStart(9)}  ${who.padEnd(6)} ${l.event}`;
    });
    const max = options.maxLines ?? Number.POSITIVE_INFINITY;
    if (text.length <= max) return text.join('\n');
    // A long run (a loop) reads best as its start and its end.
    const head = Math.ceil(max * 0.75);
    const tail = max - head;
    return [
      ...text.slice(0, head),
      `   ... ${text.length - max} more lines ...`,
      ...text.slice(text.length - tail),
    ].join('\n');
  }
}

/** Every call sid a queue event is about. */
export function queueEventCalls(e: TraceQueueEvent): string[] {
  switch (e.type) {
    case 'match':
      return [e.waiting.callSid, e.arriving.callSid];
    case 'position-change':
      return [];
    case 'join':
    case 'bridge':
    case 'bridge-end':
      return [e.callSid, e.partnerCallSid];
    default:
      return [e.callSid];
  }
}

/** Reading helpers over `trace`. */
export function flowTrace(trace: Trace): FlowTrace {
  return new FlowTrace(trace);
}
