import type { Dial } from '../../rcml/model.js';
import { dialDefaults } from '../../rcml/verbs/dial.js';
import { Interrupted } from '../errors.js';
import type { CallStatus } from '../records.js';
import { actionOutcome } from './action.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** The Dial outcome reported to its action. */
export interface DialOutcome {
  status: CallStatus;
  callSid?: string;
  duration: number;
  ringDuration: number;
  recordingUrl?: string;
  /** The action gets the voice parameters alone (a conference, as the platform's FinishConferencing). */
  plain?: boolean;
}

/**
 * Reports the outcome: with an action, its document replaces this one; without, the next verb.
 * When the caller has hung up (or its script was stopped) the action is still requested, as a
 * notification, and the interruption goes on.
 */
export function finish(ctx: VerbContext, verb: Dial, outcome: DialOutcome): VerbOutcome {
  if (ctx.signal.aborted || ctx.services.ended) {
    if (ctx.services.ended || ctx.signal.reason === 'ended') notifyAction(ctx, verb, outcome);
    throw Interrupted.of(ctx.services.ended ? 'ended' : (ctx.signal.reason ?? 'replaced'));
  }
  if (!verb.action) return NEXT;
  const method = verb.method ?? dialDefaults.method;
  return actionOutcome(ctx, 'Dial', verb.action, method, ctx.params(actionParams(outcome)));
}

/** Requests the action with the outcome without running its answer (the call is over or ending). */
export function notifyAction(ctx: VerbContext, verb: Dial, outcome: DialOutcome): void {
  const action = verb.action ? ctx.resolveUrl(verb.action) : undefined;
  if (action)
    ctx.send('action', action, verb.method ?? dialDefaults.method, ctx.params(actionParams(outcome)));
}

function actionParams(outcome: DialOutcome): Record<string, string> | undefined {
  if (outcome.plain) return undefined;
  const params: Record<string, string> = {
    DialCallStatus: outcome.status,
    DialCallDuration: String(outcome.duration),
    DialRingDuration: String(outcome.ringDuration),
  };
  if (outcome.callSid) params.DialCallSid = outcome.callSid;
  if (outcome.recordingUrl) params.RecordingUrl = outcome.recordingUrl;
  return params;
}
