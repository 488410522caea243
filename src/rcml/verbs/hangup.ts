import type { ReadContext } from '../context.js';
import type { Hangup } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import type { AttrRules } from './rules.js';

/** `<Hangup>` has no attributes. */
export const hangupAttributes: AttrRules<Omit<Hangup, 'verb' | 'pos'>> = {};

/** Reads `<Hangup/>`. */
export function readHangup(el: XmlElement, ctx: ReadContext): Hangup {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  readAttributes(el, hangupAttributes, ctx);
  return { verb: 'Hangup', pos: ctx.pos(el.offset) };
}
