import type { ReadContext } from '../context.js';
import type { Play } from '../model.js';
import { expectedText, readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, int } from './rules.js';

/** Values used when `<Play>` leaves an attribute out. `loop` 0 repeats until hang-up. */
export const playDefaults = { loop: 1 } as const satisfies Required<Pick<Play, 'loop'>>;

export const playAttributes: AttrRules<Omit<Play, 'verb' | 'url' | 'pos'>> = {
  loop: int(0, '13410'),
};

/** Reads `<Play>URL</Play>`; an empty one is a warning and plays nothing. */
export function readPlay(el: XmlElement, ctx: ReadContext): Play {
  rejectChildren(el, ctx);
  const url = expectedText(el, ctx, 'the URL of the audio to play', 'the next verb runs');
  return { verb: 'Play', url, ...readAttributes(el, playAttributes, ctx), pos: ctx.pos(el.offset) };
}
