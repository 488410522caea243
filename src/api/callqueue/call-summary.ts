import type { CallQueueEvent } from '../../store/callqueue/types.js';

/** What a queue operator wants to know about one call to a number, folded from its events. */
export interface CallSummary {
  callSid: string;
  /** Last `CallStatus` its status callback reported. */
  status?: string;
  answered: boolean;
  /** It waited in a queue at some point. */
  queued: boolean;
  queueName?: string;
  side?: 'dialer' | 'enqueued';
  /** Calls it was connected with, in order (an agent with rejoin meets several). */
  partners: string[];
  /** It left a queue while waiting (hang-up, Leave, Dial timeout) without being connected. */
  abandoned: boolean;
  ended: boolean;
  /** `CallDuration` of the completed callback. */
  duration?: number;
  /** Status callbacks received. */
  callbacks: number;
}

/** Totals over a number's calls. */
export interface CallTotals {
  calls: number;
  answered: number;
  queued: number;
  bridged: number;
  abandoned: number;
  ended: number;
}

const TERMINAL = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** Folds events (in recording order) into one summary per call, first seen first. */
export function summarizeCalls(events: readonly CallQueueEvent[]): {
  calls: CallSummary[];
  totals: CallTotals;
} {
  const byCall = new Map<string, CallSummary>();
  for (const e of events) {
    let s = byCall.get(e.callSid);
    if (!s) {
      s = {
        callSid: e.callSid,
        answered: false,
        queued: false,
        partners: [],
        abandoned: false,
        ended: false,
        callbacks: 0,
      };
      byCall.set(e.callSid, s);
    }
    switch (e.type) {
      case 'status':
        s.callbacks++;
        s.status = e.status;
        if (e.status === 'in-progress') s.answered = true;
        if (e.status !== undefined && TERMINAL.has(e.status)) {
          s.ended = true;
          if (e.duration !== undefined) s.duration = e.duration;
        }
        break;
      case 'enqueue':
        s.queued = true;
        s.queueName = e.queueName;
        s.side = e.side;
        break;
      case 'match':
        s.queueName = e.queueName;
        s.side = e.side;
        if (e.partnerCallSid) s.partners.push(e.partnerCallSid);
        break;
      case 'leave':
      case 'timeout':
        if (s.partners.length === 0) s.abandoned = true;
        break;
      default:
        break;
    }
  }
  const calls = [...byCall.values()];
  const totals: CallTotals = {
    calls: calls.length,
    answered: 0,
    queued: 0,
    bridged: 0,
    abandoned: 0,
    ended: 0,
  };
  for (const s of calls) {
    if (s.answered) totals.answered++;
    if (s.queued) totals.queued++;
    if (s.partners.length > 0) totals.bridged++;
    if (s.abandoned) totals.abandoned++;
    if (s.ended) totals.ended++;
  }
  return { calls, totals };
}
