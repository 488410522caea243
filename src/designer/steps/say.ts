import type { Say } from '../../rcml/model.js';
import type { RenderContext } from '../context.js';
import type { MessageSay, SayStep } from '../schema.js';
import { expand } from '../variables.js';

/** say -> `<Say voice language loop>` with variables expanded. */
export function renderSay(step: SayStep | MessageSay, ctx: RenderContext): Say {
  const say: Say = { verb: 'Say', text: expand(step.phrase, ctx.vars) };
  // Any voice name RCML accepts is passed through as written (`alice`).
  if (step.voice) say.voice = step.voice as Say['voice'];
  if (step.language) say.language = step.language;
  if (step.loop !== undefined) say.loop = step.loop;
  return say;
}
