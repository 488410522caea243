import type { ReadContext } from '../context.js';
import type { Say } from '../model.js';
import { readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, int, oneOf, text } from './rules.js';

/** Values used when `<Say>` leaves an attribute out. `loop` 0 repeats until hang-up. */
export const sayDefaults = { voice: 'man', language: 'en', loop: 1 } as const satisfies Required<
  Pick<Say, 'voice' | 'language' | 'loop'>
>;

export const sayAttributes: AttrRules<Omit<Say, 'verb' | 'text' | 'pos'>> = {
  voice: oneOf(['man', 'woman'] as const, '13511'),
  language: text(),
  loop: int(0, '13510'),
};

/** A Say nested in Gather reports its own codes (the platform's ProcessingGatherChildren). */
export const gatherSayAttributes: AttrRules<Omit<Say, 'verb' | 'text' | 'pos'>> = {
  ...sayAttributes,
  voice: oneOf(['man', 'woman'] as const, '13321'),
  loop: int(0, '13322'),
};

/** Reads `<Say>`: the text is spoken; empty text does nothing. */
export function readSay(el: XmlElement, ctx: ReadContext, rules = sayAttributes): Say {
  rejectChildren(el, ctx);
  return {
    verb: 'Say',
    text: el.text.trim(),
    ...readAttributes(el, rules, ctx),
    pos: ctx.pos(el.offset),
  };
}
