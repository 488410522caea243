import type { Resume } from '../../rcml/model.js';
import { setHeld } from '../media.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** `<Resume>`: takes the call off hold (session detail record `resume`). */
export async function resumeVerb(ctx: VerbContext, _verb: Resume): Promise<VerbOutcome> {
  setHeld(ctx.owner, false);
  return NEXT;
}
