import type { ReadContext } from '../context.js';
import type { Reject } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, oneOf } from './rules.js';

/** Values used when `<Reject>` leaves an attribute out. */
export const rejectDefaults = { reason: 'rejected' } as const satisfies Required<Pick<Reject, 'reason'>>;

export const rejectAttributes: AttrRules<Omit<Reject, 'verb' | 'pos'>> = {
  reason: oneOf(['rejected', 'busy'] as const),
};

/** Reads `<Reject>`. */
export function readReject(el: XmlElement, ctx: ReadContext): Reject {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  return { verb: 'Reject', ...readAttributes(el, rejectAttributes, ctx), pos: ctx.pos(el.offset) };
}
