import type { Say } from '../../rcml/model.js';
import { sayDefaults } from '../../rcml/verbs/say.js';
import type { MediaSource } from '../ports/call-line.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

const next = (): VerbOutcome => NEXT;

/**
 * Speaks the text `loop` times (0: until hang-up) on the call's line. Once, the common case,
 * is a `then` on the play rather than an async function: the same microtasks, without a
 * suspended frame and its promises per Say.
 */
export function sayVerb(ctx: VerbContext, verb: Say): Promise<VerbOutcome> {
  if (!verb.text) return Promise.resolve(NEXT);
  const speech: MediaSource = {
    kind: 'speech',
    text: verb.text,
    voice: verb.voice ?? sayDefaults.voice,
    language: verb.language ?? sayDefaults.language,
  };
  const loop = verb.loop ?? sayDefaults.loop;
  if (loop !== 1) return sayLoop(ctx, speech, loop);
  try {
    return ctx.play(speech).then(next);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function sayLoop(ctx: VerbContext, speech: MediaSource, loop: number): Promise<VerbOutcome> {
  // Speech that failed fails at once: looping on would never yield (loop 0).
  for (let i = 0; loop === 0 || i < loop; i++) if ((await ctx.play(speech)) === 'failed') break;
  return NEXT;
}
