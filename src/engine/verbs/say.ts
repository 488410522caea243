import type { Say } from '../../rcml/model.js';
import { sayDefaults } from '../../rcml/verbs/say.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** Speaks the text `loop` times (0: until hang-up) on the call's line. */
export async function sayVerb(ctx: VerbContext, verb: Say): Promise<VerbOutcome> {
  if (!verb.text) return NEXT;
  const speech = {
    kind: 'speech',
    text: verb.text,
    voice: verb.voice ?? sayDefaults.voice,
    language: verb.language ?? sayDefaults.language,
  } as const;
  const loop = verb.loop ?? sayDefaults.loop;
  for (let i = 0; loop === 0 || i < loop; i++) await ctx.play(speech);
  return NEXT;
}
