import type { Pause } from '../../rcml/model.js';
import { pauseDefaults } from '../../rcml/verbs/pause.js';
import type { PlayFailed } from '../ports/call-line.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

const next = (): VerbOutcome => NEXT;

/**
 * Plays `length` seconds of silence; on a ringing inbound call this delays the answer. Not an
 * async function: a call parked in a long Pause then holds one promise reaction, not a
 * suspended frame.
 */
export function pauseVerb(ctx: VerbContext, verb: Pause): Promise<VerbOutcome> {
  return pauseSilence(ctx, verb).then(next);
}

/**
 * The silence of a Pause alone, for the interpreter, which takes its end as `next` itself (one
 * promise fewer held by a parked call).
 */
export function pauseSilence(ctx: VerbContext, verb: Pause): Promise<PlayFailed | undefined> {
  return ctx.play({ kind: 'silence', seconds: verb.length ?? pauseDefaults.length });
}
