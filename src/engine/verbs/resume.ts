import type { Resume } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** `<Resume>`: takes the call off hold (session detail record `resume`). */
export async function resumeVerb(ctx: VerbContext, _verb: Resume): Promise<VerbOutcome> {
  ctx.services.setHeld(false);
  return NEXT;
}
