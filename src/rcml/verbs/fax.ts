import type { ReadContext } from '../context.js';
import type { Fax } from '../model.js';
import { readAttributes, rejectChildren, requiredText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { messageAttributes, messageDefaults } from './message.js';
import type { AttrRules } from './rules.js';

/** Values used when `<Fax>` leaves an attribute out. */
export const faxDefaults = messageDefaults;

export const faxAttributes: AttrRules<Omit<Fax, 'verb' | 'text' | 'pos'>> = messageAttributes();

/** Reads `<Fax>document URL</Fax>`; the text is required. */
export function readFax(el: XmlElement, ctx: ReadContext): Fax {
  rejectChildren(el, ctx);
  const text = requiredText(el, ctx, 'the document to send');
  return { verb: 'Fax', text, ...readAttributes(el, faxAttributes, ctx), pos: ctx.pos(el.offset) };
}
