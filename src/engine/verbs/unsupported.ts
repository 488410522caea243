import type { Verb } from '../../rcml/model.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** A known verb this engine does not run yet: skipped with a warning notification. */
export async function unsupportedVerb(ctx: VerbContext, verb: Verb): Promise<VerbOutcome> {
  ctx.notify('engine.unsupported-verb', 1, `<${verb.verb}> is not supported by this engine; skipped`);
  return NEXT;
}
