import type { Reject } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

const BUSY: VerbOutcome = { kind: 'end', status: 'busy' };
/** Also `busy` on the platform; the line is told, to refuse with SIP 603 rather than 486. */
const REJECTED: VerbOutcome = { kind: 'end', status: 'busy', reason: 'rejected' };

/**
 * Refuses a ringing call: the call ends `busy` for both reasons, as on the platform (SIP 486
 * for `busy`, 603 for `rejected`; an invalid reason means `rejected`). On an answered call it
 * is skipped with a warning.
 */
export async function rejectVerb(ctx: VerbContext, verb: Reject): Promise<VerbOutcome> {
  if (!ctx.isRinging()) {
    ctx.notify('engine.reject-answered', 1, 'Reject on an answered call is skipped');
    return NEXT;
  }
  return verb.reason === 'busy' ? BUSY : REJECTED;
}
