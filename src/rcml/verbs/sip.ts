import type { ReadContext } from '../context.js';
import type { SipNoun } from '../model.js';
import { readAttributes } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { legNounAttributes } from './leg-noun.js';
import { nounTarget } from './noun-target.js';
import { type AttrRules, text } from './rules.js';
import { readNounVideo } from './video.js';

export const sipAttributes: AttrRules<Omit<SipNoun, 'noun' | 'uri' | 'video' | 'pos'>> = {
  ...legNounAttributes,
  username: text(),
  password: text(),
};

/** Reads `<Sip>` inside Dial; the URI is kept whole, `?X-Header=value` parameters included. */
export function readSip(el: XmlElement, ctx: ReadContext): SipNoun {
  const video = readNounVideo(el, ctx, false);
  const uri = nounTarget(el, ctx, 'the SIP URI', video !== undefined);
  return {
    noun: 'Sip',
    uri,
    ...readAttributes(el, sipAttributes, ctx, 'name'),
    ...(video && { video }),
    pos: ctx.pos(el.offset),
  };
}
