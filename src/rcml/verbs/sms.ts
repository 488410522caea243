import type { ReadContext } from '../context.js';
import type { Sms } from '../model.js';
import { expectedText, readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { messageAttributes, messageDefaults } from './message.js';
import type { AttrRules } from './rules.js';

/** Values used when `<Sms>` leaves an attribute out; `to` defaults to the caller, `from` to the called number. */
export const smsDefaults = messageDefaults;

export const smsAttributes: AttrRules<Omit<Sms, 'verb' | 'text' | 'pos'>> = messageAttributes('14104');

/** Reads `<Sms>text</Sms>`; empty text is warning 14103 here (at run time, error 14103 and hang-up). */
export function readSms(el: XmlElement, ctx: ReadContext): Sms {
  rejectChildren(el, ctx);
  const text = expectedText(el, ctx, 'the message body', 'the call hangs up there', '14103');
  return { verb: 'Sms', text, ...readAttributes(el, smsAttributes, ctx), pos: ctx.pos(el.offset) };
}
