import type { ReadContext } from '../context.js';
import type { ClientNoun } from '../model.js';
import { readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { legNounAttributes } from './leg-noun.js';
import { nounTarget } from './noun-target.js';
import type { AttrRules } from './rules.js';

export const clientAttributes: AttrRules<Omit<ClientNoun, 'noun' | 'name' | 'pos'>> = legNounAttributes;

/** Reads `<Client>` inside Dial. */
export function readClient(el: XmlElement, ctx: ReadContext): ClientNoun {
  rejectChildren(el, ctx);
  const name = nounTarget(el, ctx, 'the client name');
  return {
    noun: 'Client',
    name,
    ...readAttributes(el, clientAttributes, ctx, 'name'),
    pos: ctx.pos(el.offset),
  };
}
