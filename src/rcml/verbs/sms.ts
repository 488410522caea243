import type { ReadContext } from '../context.js';
import type { Sms } from '../model.js';
import { readAttributes, rejectChildren, requiredText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { messageAttributes, messageDefaults } from './message.js';
import type { AttrRules } from './rules.js';

/** Values used when `<Sms>` leaves an attribute out; `to` defaults to the caller, `from` to the called number. */
export const smsDefaults = messageDefaults;

export const smsAttributes: AttrRules<Omit<Sms, 'verb' | 'text' | 'pos'>> = messageAttributes('14104');

/** Reads `<Sms>text</Sms>`; empty text is error 14103. */
export function readSms(el: XmlElement, ctx: ReadContext): Sms {
  rejectChildren(el, ctx);
  const text = requiredText(el, ctx, 'the message body', '14103');
  return { verb: 'Sms', text, ...readAttributes(el, smsAttributes, ctx), pos: ctx.pos(el.offset) };
}
