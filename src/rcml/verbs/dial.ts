import type { ReadContext } from '../context.js';
import type { Dial, DialNoun } from '../model.js';
import { readAttributes, reportMisplaced } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { readClient } from './client.js';
import { readConference } from './conference.js';
import type { NounReader } from './noun-target.js';
import { readNumber } from './number.js';
import { readQueue } from './queue.js';
import { type AttrRules, bool, int, matching, method, text } from './rules.js';
import { readSip } from './sip.js';

/** Values used when `<Dial>` leaves an attribute out. Without `callerId` the caller's From is used. */
export const dialDefaults = {
  method: 'POST',
  timeout: 30,
  timeLimit: 14400,
  record: false,
} as const satisfies Required<Pick<Dial, 'method' | 'timeout' | 'timeLimit' | 'record'>>;

export const dialAttributes: AttrRules<Omit<Dial, 'verb' | 'nouns' | 'fromText' | 'pos'>> = {
  action: text(),
  method: method('13210'),
  timeout: int(1, '13212'),
  timeLimit: int(1, '13216'),
  callerId: matching(
    /^\s*\+?[0-9]{1,15}\s*$/,
    '13214',
    'a phone number in E.164 form (+ and up to 15 digits)',
  ),
  record: bool(),
  hangupOnStar: bool(),
};

const NOUN_READERS: { readonly [name: string]: NounReader<DialNoun> } = {
  Number: readNumber,
  Client: readClient,
  Sip: readSip,
  Conference: readConference,
  Queue: readQueue,
};

/**
 * The noun a text target names: `client:alice` is a Client, `sip:`/`sips:` a Sip (whole URI
 * kept), anything else a Number.
 */
export function textTarget(target: string): DialNoun {
  const value = target.trim();
  if (/^client:/i.test(value)) return { noun: 'Client', name: value.slice(7).trim() };
  if (/^sips?:/i.test(value)) return { noun: 'Sip', uri: value };
  return { noun: 'Number', number: value };
}

/** Reads `<Dial>`: either a text target or Number, Client, Sip, Conference and Queue nouns. */
export function readDial(el: XmlElement, ctx: ReadContext): Dial {
  const attrs = readAttributes(el, dialAttributes, ctx);
  const pos = ctx.pos(el.offset);
  const text = el.text.trim();
  if (el.children.length === 0) {
    if (text === '') {
      ctx.warn(
        'rcml.required',
        '<Dial> needs a target: text or a noun (the next verb runs, no action)',
        el.offset,
        'Dial',
      );
      return { verb: 'Dial', ...attrs, nouns: [], pos };
    }
    return { verb: 'Dial', ...attrs, nouns: [{ ...textTarget(text), pos }], fromText: true, pos };
  }
  if (text !== '') {
    ctx.warn(
      'rcml.unexpected-text',
      '<Dial> has both text and nouns: the text is ignored',
      el.offset,
      'Dial',
    );
  }
  const nouns: DialNoun[] = [];
  for (const child of el.children) {
    const read = Object.hasOwn(NOUN_READERS, child.name) ? NOUN_READERS[child.name] : undefined;
    if (read) nouns.push(read(child, ctx));
    else reportMisplaced(child, el, ctx, 'rcml.unknown-noun');
  }
  return { verb: 'Dial', ...attrs, nouns, pos };
}
