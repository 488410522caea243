import type { Email, Fax, Sms } from '../model.js';
import { type AttrRules, method, text } from './rules.js';

type MessageAttributes = Omit<Sms, 'verb' | 'text' | 'pos'>;

/** Values used when a message verb (Sms, Email, Fax) leaves an attribute out. */
export const messageDefaults = { method: 'POST' } as const satisfies Required<
  Pick<Sms | Email | Fax, 'method'>
>;

/** Attributes shared by Sms, Email and Fax; `methodCode` is the verb's invalid-method code. */
export function messageAttributes(methodCode?: string): AttrRules<MessageAttributes> {
  return {
    to: text(),
    from: text(),
    action: text(),
    method: method(methodCode),
    statusCallback: text(),
  };
}
