import type { Pause } from '../../rcml/model.js';
import { pauseDefaults } from '../../rcml/verbs/pause.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** Waits `length` seconds; on a ringing inbound call this delays the answer. */
export async function pauseVerb(ctx: VerbContext, verb: Pause): Promise<VerbOutcome> {
  await ctx.wait(verb.length ?? pauseDefaults.length);
  return NEXT;
}
