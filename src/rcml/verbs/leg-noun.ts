import type { LegNounBase } from '../model.js';
import { type AttrRules, events, method, text } from './rules.js';

/** Values used when a Number, Client or Sip noun leaves an attribute out. */
export const legNounDefaults = { method: 'POST', statusCallbackMethod: 'POST' } as const satisfies Required<
  Pick<LegNounBase, 'method' | 'statusCallbackMethod'>
>;

/** Attributes shared by Number, Client and Sip. */
export const legNounAttributes: AttrRules<Omit<LegNounBase, 'pos'>> = {
  url: text(),
  method: method(),
  statusCallback: text(),
  statusCallbackMethod: method(),
  statusCallbackEvent: events(),
};
