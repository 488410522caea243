import type { Hold } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** `<Hold>`: puts the call on hold (session detail record `hold`); the peer hears hold audio. */
export async function holdVerb(ctx: VerbContext, _verb: Hold): Promise<VerbOutcome> {
  ctx.services.setHeld(true);
  return NEXT;
}
