import type { ReadContext } from '../context.js';
import type { Leave } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import type { AttrRules } from './rules.js';

/** `<Leave>` has no attributes. */
export const leaveAttributes: AttrRules<Omit<Leave, 'verb' | 'pos'>> = {};

/** Reads `<Leave/>`. */
export function readLeave(el: XmlElement, ctx: ReadContext): Leave {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  readAttributes(el, leaveAttributes, ctx);
  return { verb: 'Leave', pos: ctx.pos(el.offset) };
}
