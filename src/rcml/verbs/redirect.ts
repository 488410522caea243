import type { ReadContext } from '../context.js';
import type { Redirect } from '../model.js';
import { expectedText, readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, method } from './rules.js';

/** Values used when `<Redirect>` leaves an attribute out. */
export const redirectDefaults = { method: 'POST' } as const satisfies Required<Pick<Redirect, 'method'>>;

export const redirectAttributes: AttrRules<Omit<Redirect, 'verb' | 'url' | 'pos'>> = {
  method: method('13710'),
};

/**
 * Reads `<Redirect>URL</Redirect>`. An empty Redirect is a warning (it would hide a broken
 * link) and runs as the platform runs it: the next verb follows.
 */
export function readRedirect(el: XmlElement, ctx: ReadContext): Redirect {
  rejectChildren(el, ctx);
  const url = expectedText(el, ctx, 'a URL', 'the next verb runs');
  return { verb: 'Redirect', url, ...readAttributes(el, redirectAttributes, ctx), pos: ctx.pos(el.offset) };
}
