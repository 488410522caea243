import type { Reject } from '../../rcml/model.js';
import { rejectDefaults } from '../../rcml/verbs/reject.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Refuses a ringing call: reason `busy` ends it `busy` (SIP 486), `rejected` ends it `failed`
 * (SIP 603). On an answered call it is skipped with a warning.
 */
export async function rejectVerb(ctx: VerbContext, verb: Reject): Promise<VerbOutcome> {
  if (!ctx.isRinging()) {
    ctx.notify('engine.reject-answered', 1, 'Reject on an answered call is skipped');
    return NEXT;
  }
  const reason = verb.reason ?? rejectDefaults.reason;
  return { kind: 'end', status: reason === 'busy' ? 'busy' : 'failed' };
}
