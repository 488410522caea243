import type { Hold } from '../../rcml/model.js';
import { setHeld } from '../media.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** `<Hold>`: puts the call on hold (session detail record `hold`); the peer hears hold audio. */
export async function holdVerb(ctx: VerbContext, _verb: Hold): Promise<VerbOutcome> {
  setHeld(ctx.owner, true);
  return NEXT;
}
