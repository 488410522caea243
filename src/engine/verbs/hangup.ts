import type { Hangup } from '../../rcml/model.js';
import type { VerbContext, VerbOutcome } from './types.js';

const HANGUP: VerbOutcome = { kind: 'hangup' };

/** Ends the call. */
export async function hangupVerb(_ctx: VerbContext, _verb: Hangup): Promise<VerbOutcome> {
  return HANGUP;
}
