import type { ReadContext } from '../context.js';
import type { ClientNoun } from '../model.js';
import { readAttributes } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { legNounAttributes } from './leg-noun.js';
import { nounTarget } from './noun-target.js';
import type { AttrRules } from './rules.js';
import { readNounVideo } from './video.js';

export const clientAttributes: AttrRules<Omit<ClientNoun, 'noun' | 'name' | 'video' | 'pos'>> =
  legNounAttributes;

/** Reads `<Client>` inside Dial. */
export function readClient(el: XmlElement, ctx: ReadContext): ClientNoun {
  const video = readNounVideo(el, ctx, false);
  const name = nounTarget(el, ctx, 'the client name', video !== undefined);
  return {
    noun: 'Client',
    name,
    ...readAttributes(el, clientAttributes, ctx, 'name'),
    ...(video && { video }),
    pos: ctx.pos(el.offset),
  };
}
