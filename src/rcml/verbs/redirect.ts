import type { ReadContext } from '../context.js';
import type { Redirect } from '../model.js';
import { readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, method } from './rules.js';

/** Values used when `<Redirect>` leaves an attribute out. */
export const redirectDefaults = { method: 'POST' } as const satisfies Required<Pick<Redirect, 'method'>>;

export const redirectAttributes: AttrRules<Omit<Redirect, 'verb' | 'url' | 'pos'>> = {
  method: method('13710'),
};

/**
 * Reads `<Redirect>URL</Redirect>`. The URL is required text: an empty Redirect is an error
 * (the platform would silently run the next verb, which hides a broken link).
 */
export function readRedirect(el: XmlElement, ctx: ReadContext): Redirect {
  rejectChildren(el, ctx);
  const url = el.text.trim();
  if (url === '') {
    ctx.error('rcml.required', '<Redirect> needs a URL as its text', el.offset, 'Redirect');
  }
  return { verb: 'Redirect', url, ...readAttributes(el, redirectAttributes, ctx), pos: ctx.pos(el.offset) };
}
