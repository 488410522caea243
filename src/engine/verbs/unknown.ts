import type { Verb } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** A verb the engine does not know: skipped with a warning notification. */
export async function unknownVerb(ctx: VerbContext, verb: Verb): Promise<VerbOutcome> {
  const name = verb.verb === 'Unknown' ? verb.name : verb.verb;
  ctx.notify('rcml.unknown-verb', 1, `unknown verb <${name}> skipped`);
  return NEXT;
}
