import type { Hangup } from '../../rcml/model.js';
import type { VerbContext, VerbOutcome } from './types.js';

const HANGUP: Promise<VerbOutcome> = Promise.resolve({ kind: 'hangup' });

/** Ends the call (one shared, settled answer: the verb has nothing to wait for). */
export function hangupVerb(_ctx: VerbContext, _verb: Hangup): Promise<VerbOutcome> {
  return HANGUP;
}
