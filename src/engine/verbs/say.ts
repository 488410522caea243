import type { Say } from '../../rcml/model.js';
import { sayDefaults } from '../../rcml/verbs/say.js';
import { speakingSeconds } from '../settings.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** Speaks the text `loop` times (0: until hang-up); each time lasts its speaking time. */
export async function sayVerb(ctx: VerbContext, verb: Say): Promise<VerbOutcome> {
  if (!verb.text) return NEXT;
  const seconds = speakingSeconds(verb.text, ctx.settings);
  const loop = verb.loop ?? sayDefaults.loop;
  for (let i = 0; loop === 0 || i < loop; i++) await ctx.wait(seconds);
  return NEXT;
}
