import type { ReadContext } from '../context.js';
import type { Pause } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, int } from './rules.js';

/** Values used when `<Pause>` leaves an attribute out (seconds). */
export const pauseDefaults = { length: 1 } as const satisfies Required<Pick<Pause, 'length'>>;

export const pauseAttributes: AttrRules<Omit<Pause, 'verb' | 'pos'>> = {
  length: int(0, '13910'),
};

/** Reads `<Pause>`. */
export function readPause(el: XmlElement, ctx: ReadContext): Pause {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  return { verb: 'Pause', ...readAttributes(el, pauseAttributes, ctx), pos: ctx.pos(el.offset) };
}
