import type { Play } from '../../rcml/model.js';
import type { RenderContext } from '../context.js';
import type { PlayStep } from '../schema.js';
import { expand } from '../variables.js';

/** play -> `<Play loop>` with the project's media URL (local) or the expanded remote URL. */
export function renderPlay(step: PlayStep, ctx: RenderContext): Play {
  const url =
    step.playType === 'local'
      ? `${ctx.app.mediaBaseUrl}/${encodeURIComponent(step.local?.wavLocalFilename ?? '')}`
      : expand(step.remote?.wavUrl, ctx.vars);
  const play: Play = { verb: 'Play', url };
  if (step.loop !== undefined) play.loop = step.loop;
  return play;
}
