import type { HttpMethod } from '../rcml/model.js';
import { Call } from './call.js';
import type { CallStatus } from './records.js';
import type { ScriptSignal } from './script-signal.js';
import type { StatusCallbackConfig } from './status-callbacks.js';

/** A callee leg to place for a parent call. */
export interface LegOptions {
  /** Number, `client:<name>` or `sip:` address (without URI headers). */
  to: string;
  /** Caller id shown to the callee (Dial `callerId`, else the parent's From). */
  from: string;
  /** Ring seconds before `no-answer`. */
  timeout: number;
  /** Custom SIP headers (`X-...`), sent as `SipHeader_X-...` parameters. */
  headers?: Record<string, string>;
  callbacks?: StatusCallbackConfig;
}

/**
 * Starts a child leg of `parent`: direction `outbound-dial`, `ParentCallSid` set, ringing its
 * party (`rt.party(to)`). The leg runs no document when answered; it waits to be bridged.
 */
export function startLeg(parent: Call, options: LegOptions): Call {
  const rt = parent.rt;
  const record = rt.newCallRecord('outbound-dial', options.from, options.to);
  record.parentCallSid = parent.record.sid;
  record.accountSid = parent.record.accountSid;
  const leg = new Call(rt, {
    record,
    outbound: true,
    ringTimeoutMs: options.timeout * 1000,
    headers: options.headers,
    callbacks: options.callbacks,
  });
  rt.live.set(record.sid, leg);
  parent.outboundCallSid = record.sid;
  rt.listener?.({
    type: 'leg',
    at: rt.clock.now(),
    callSid: record.sid,
    parentCallSid: parent.record.sid,
    to: options.to,
  });
  leg.begin();
  return leg;
}

/**
 * Legs a Dial is ringing or screening, each with what takes it out of that Dial. A live
 * modification with `Url` of such a leg calls {@link releaseLeg}: the leg goes its own way.
 */
const claimed = new WeakMap<Call, () => void>();
const released = new WeakSet<Call>();

/**
 * Takes a leg out of the Dial that is ringing or screening it (live modification with `Url`):
 * that Dial never bridges it and does not hang it up; the leg runs the new document when it
 * answers. Returns false when no Dial is waiting for this call.
 */
export function releaseLeg(leg: Call): boolean {
  const release = claimed.get(leg);
  if (!release) return false;
  claimed.delete(leg);
  released.add(leg);
  release();
  return true;
}

/** True once {@link releaseLeg} took the leg out of its Dial. */
export function isReleased(leg: Call): boolean {
  return released.has(leg);
}

/** Outcome of ringing legs in parallel. */
export interface RingResult {
  /** The first leg to answer; the others were canceled. */
  winner?: Call;
  /** `in-progress` with a winner, else the status of the last leg to drop out (`canceled` when aborted). */
  status: CallStatus;
  /** Ms from the start of ringing to the answer (or to the end of ringing). */
  ringMs: number;
}

/**
 * Waits for the first of `legs` to answer and cancels the others. Busy, failed, unanswered
 * and released (see {@link releaseLeg}) legs drop out; when none is left the result carries
 * the last one's status (`canceled` for a released leg). When `signal` fires (the dialing
 * script stopped) every leg still ringing is canceled, except released ones.
 */
export function ringLegs(legs: readonly Call[], signal?: ScriptSignal): Promise<RingResult> {
  const clock = legs[0]?.rt.clock;
  const start = clock?.now() ?? 0;
  return new Promise<RingResult>((resolve) => {
    if (!clock || legs.length === 0) {
      resolve({ status: 'failed', ringMs: 0 });
      return;
    }
    let done = false;
    const offs: Array<() => void> = [];
    const settle = (result: Omit<RingResult, 'ringMs'>): void => {
      if (done) return;
      done = true;
      for (const off of offs) off();
      for (const leg of legs) {
        claimed.delete(leg);
        if (leg !== result.winner && !released.has(leg) && !leg.ended) leg.end('canceled');
      }
      resolve({ ...result, ringMs: clock.now() - start });
    };
    const out = (l: Call): boolean => l.ended || released.has(l);
    const check = (last: Call): void => {
      if (released.has(last)) {
        if (legs.every(out)) settle({ status: 'canceled' });
      } else if (last.record.status === 'in-progress') settle({ winner: last, status: 'in-progress' });
      else if (legs.every(out)) settle({ status: last.record.status });
    };
    for (const leg of legs) {
      offs.push(leg.watch(check));
      claimed.set(leg, () => check(leg));
    }
    signal?.onAbort(() => settle({ status: 'canceled' }));
    for (const leg of legs) if (leg.ended || leg.record.status === 'in-progress') check(leg);
  });
}

/**
 * How a screening document ended: `end` (it ran out of verbs: the callee may be bridged),
 * `hangup` (a Hangup verb in it), `stopped` (the leg ended otherwise, a failed fetch included,
 * or a live modification released it).
 */
export type ScreeningResult = 'end' | 'hangup' | 'stopped';

/** Runs a screening document on an answered callee, with the screening request parameters. */
export function screenLeg(leg: Call, url: string, method: HttpMethod): Promise<ScreeningResult> {
  return new Promise<ScreeningResult>((resolve) => {
    if (leg.ended || released.has(leg)) {
      resolve('stopped');
      return;
    }
    let settled = false;
    const done = (result: ScreeningResult): void => {
      if (settled) return;
      settled = true;
      off();
      claimed.delete(leg);
      resolve(result);
    };
    const off = leg.watch((c) => c.ended && done('stopped'));
    // Released by a live modification: its new document has replaced the screening one.
    claimed.set(leg, () => done('stopped'));
    leg.run({
      url,
      method,
      kind: 'rcml',
      screening: true,
      onEnd: () => done('end'),
      onHangup: () => done('hangup'),
    });
  });
}
