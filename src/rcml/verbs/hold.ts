import type { ReadContext } from '../context.js';
import type { Hold } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import type { AttrRules } from './rules.js';

/** `<Hold>` has no attributes. */
export const holdAttributes: AttrRules<Omit<Hold, 'verb' | 'pos'>> = {};

/** Reads `<Hold/>`. */
export function readHold(el: XmlElement, ctx: ReadContext): Hold {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  readAttributes(el, holdAttributes, ctx);
  return { verb: 'Hold', pos: ctx.pos(el.offset) };
}
