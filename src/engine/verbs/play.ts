import type { Play } from '../../rcml/model.js';
import { playDefaults } from '../../rcml/verbs/play.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/**
 * Plays audio `loop` times (0: until hang-up) on the call's line. A simulated line takes the
 * WAV's real length when the URL answers with a WAV file, else `settings.playDefaultSeconds`.
 * A bad URI stops the call, and so does media that cannot be fetched (warning 13233).
 */
export async function playVerb(ctx: VerbContext, verb: Play): Promise<VerbOutcome> {
  // An empty Play (warned when the document was read) plays nothing, as on the platform.
  if (!verb.url) return NEXT;
  const url = ctx.resolveUrl(verb.url);
  if (!url) {
    ctx.notify('11100', 0, `Play: invalid URL '${verb.url}'`);
    return { kind: 'hangup' };
  }
  const audio = await ctx.audio(url);
  if (audio === null) return { kind: 'hangup' };
  const loop = verb.loop ?? playDefaults.loop;
  // A source the line cannot play fails at once: looping on would never yield (loop 0).
  for (let i = 0; loop === 0 || i < loop; i++) if ((await ctx.play(audio)) === 'failed') break;
  return NEXT;
}
