import type { ReadContext } from '../context.js';
import type { Email } from '../model.js';
import { readAttributes, rejectChildren, requiredText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { messageAttributes, messageDefaults } from './message.js';
import { type AttrRules, text } from './rules.js';

/** Values used when `<Email>` leaves an attribute out. */
export const emailDefaults = messageDefaults;

export const emailAttributes: AttrRules<Omit<Email, 'verb' | 'text' | 'pos'>> = {
  ...messageAttributes(),
  subject: text(),
  cc: text(),
  bcc: text(),
};

/** Reads `<Email>body</Email>`; the body is required. */
export function readEmail(el: XmlElement, ctx: ReadContext): Email {
  rejectChildren(el, ctx);
  const text = requiredText(el, ctx, 'the message body');
  return { verb: 'Email', text, ...readAttributes(el, emailAttributes, ctx), pos: ctx.pos(el.offset) };
}
