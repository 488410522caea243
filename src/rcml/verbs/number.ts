import type { ReadContext } from '../context.js';
import type { NumberNoun } from '../model.js';
import { readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { legNounAttributes } from './leg-noun.js';
import { nounTarget } from './noun-target.js';
import { type AttrRules, matching } from './rules.js';

export const numberAttributes: AttrRules<Omit<NumberNoun, 'noun' | 'number' | 'pos'>> = {
  ...legNounAttributes,
  sendDigits: matching(/^[0-9*#wW]*$/, 'rcml.invalid-attribute', 'digits, *, # and w (half-second wait)'),
};

/** Reads `<Number>` inside Dial. */
export function readNumber(el: XmlElement, ctx: ReadContext): NumberNoun {
  rejectChildren(el, ctx);
  const number = nounTarget(el, ctx, 'the number to dial');
  return {
    noun: 'Number',
    number,
    ...readAttributes(el, numberAttributes, ctx, 'name'),
    pos: ctx.pos(el.offset),
  };
}
