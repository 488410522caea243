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

/** Reads `<Say>`: the text is spoken; empty text does nothing. */
export function readSay(el: XmlElement, ctx: ReadContext): Say {
  rejectChildren(el, ctx);
  return {
    verb: 'Say',
    text: el.text.trim(),
    ...readAttributes(el, sayAttributes, ctx),
    pos: ctx.pos(el.offset),
  };
}
