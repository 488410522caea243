import type { CallEndedBy } from '../engine/records.js';
import type { Trace, TraceCall } from '../sim/trace.js';
import { FlowAssertionError } from './check.js';
import { type CallRef, FlowTrace } from './flow-trace.js';
import type { FlowProperty } from './properties.js';

/**
 * Assertions over a trace for any test runner: each throws a `FlowAssertionError` whose message
 * says what was expected and shows the timeline of the call concerned.
 */
export class FlowExpectation {
  readonly flow: FlowTrace;

  constructor(trace: Trace | FlowTrace) {
    this.flow = trace instanceof FlowTrace ? trace : new FlowTrace(trace);
  }

  /** Every property holds; the message lists each violation and the timeline of the first call. */
  toHold(...properties: FlowProperty[]): this {
    const violations = properties.flatMap((p) => p.check(this.flow).map((v) => ({ ...v, property: p.name })));
    if (violations.length === 0) return this;
    const first = violations.find((v) => v.callSid)?.callSid ?? undefined;
    const lines = violations.map(
      (v) => `  ${v.property}: ${v.callSid ? `${this.name(v.callSid)} ` : ''}${v.message}`,
    );
    this.fail(`expected the run to hold its properties:\n${lines.join('\n')}`, first);
  }

  /** Assertions about one call. */
  call(ref: CallRef): CallExpectation {
    return new CallExpectation(this, this.flow.call(ref));
  }

  /** `call1 (+1555 -> +1000)`. */
  name(sid: string): string {
    const i = this.flow.trace.calls.findIndex((c) => c.sid === sid);
    const c = this.flow.trace.calls[i];
    return c ? `call${i + 1} (${c.from} -> ${c.to})` : sid;
  }

  /** Throws with `message` and the timeline of `callSid` (or the whole timeline). */
  fail(message: string, callSid?: string): never {
    const title = callSid ? `Timeline of ${this.name(callSid)}:` : 'Timeline:';
    throw new FlowAssertionError(`${message}\n${title}\n${this.flow.timeline({ callSid, maxLines: 60 })}`);
  }
}

export class CallExpectation {
  constructor(
    private readonly parent: FlowExpectation,
    readonly call: TraceCall,
  ) {}

  /** The call's final status is `status`. */
  toEndWith(status: TraceCall['status']): this {
    if (this.call.status !== status) this.fail(`to end ${status}, but it is ${this.call.status}`);
    return this;
  }

  /** The call was ended by `who` (caller, application, api, timeout, engine). */
  toBeEndedBy(who: CallEndedBy): this {
    if (this.call.endedBy !== who)
      this.fail(
        `to be ended by ${who}, but ${this.call.endedBy ? `by ${this.call.endedBy}` : 'it has not ended'}`,
      );
    return this;
  }

  /** The call fetched `url` (any query). */
  toReach(url: string): this {
    if (!this.parent.flow.reached(this.call.sid, url)) {
      const urls = this.parent.flow.urlsOf(this.call.sid);
      this.fail(`to fetch ${url}, but it fetched ${urls.join(', ') || 'nothing'}`);
    }
    return this;
  }

  /** The call never fetched `url` (any query). */
  notToReach(url: string): this {
    if (this.parent.flow.reached(this.call.sid, url)) this.fail(`not to fetch ${url}, but it did`);
    return this;
  }

  /** The call ran these verbs in this order (others may come between; nested as `Gather>Say`). */
  toRun(...verbs: string[]): this {
    const ran = this.parent.flow.verbsOf(this.call.sid);
    let i = 0;
    for (const v of ran) if (v === verbs[i]) i++;
    if (i < verbs.length)
      this.fail(`to run ${verbs.join(', ')} in order, but it ran ${ran.join(', ') || 'nothing'}`);
    return this;
  }

  /** The call lasted at most `seconds` once answered. */
  toLastAtMost(seconds: number): this {
    const d = this.call.duration;
    if (d === null || d > seconds)
      this.fail(`to last at most ${seconds} s, but ${d === null ? 'it has not ended' : `it lasted ${d} s`}`);
    return this;
  }

  private fail(what: string): never {
    return this.parent.fail(`expected ${this.parent.name(this.call.sid)} ${what}`, this.call.sid);
  }
}

/** Assertions over a trace: `expectFlow(trace).call(0).toEndWith('completed').toReach(url)`. */
export function expectFlow(trace: Trace | FlowTrace): FlowExpectation {
  return new FlowExpectation(trace);
}
