import type { Enqueue, QueueNoun } from '../model.js';
import { type AttrRules, bool, method, text } from './rules.js';

/** Attributes the Enqueue verb and the Queue noun share (the platform lists them on both). */
type WaitJoin = Pick<
  Enqueue & QueueNoun,
  'waitUrl' | 'waitUrlMethod' | 'joinUrl' | 'joinUrlMethod' | 'rejoin'
>;

/** Defaults of the shared wait/join attributes, plus the document method. */
export const waitJoinDefaults = {
  method: 'POST',
  waitUrlMethod: 'POST',
  joinUrlMethod: 'POST',
  rejoin: false,
} as const satisfies Required<
  Pick<Enqueue & QueueNoun, 'method' | 'waitUrlMethod' | 'joinUrlMethod' | 'rejoin'>
>;

export const waitJoinAttributes: AttrRules<WaitJoin> = {
  waitUrl: text(),
  waitUrlMethod: method(),
  joinUrl: text(),
  joinUrlMethod: method(),
  rejoin: bool(),
};
