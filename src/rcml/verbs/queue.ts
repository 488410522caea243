import type { ReadContext } from '../context.js';
import type { QueueNoun } from '../model.js';
import { readAttributes, rejectChildren } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { nounTarget } from './noun-target.js';
import { waitJoinAttributes, waitJoinDefaults } from './queue-attributes.js';
import { type AttrRules, method, text } from './rules.js';

/** Values used when `<Queue>` leaves an attribute out. */
export const queueDefaults = waitJoinDefaults;

export const queueAttributes: AttrRules<Omit<QueueNoun, 'noun' | 'name' | 'pos'>> = {
  url: text(),
  method: method(),
  ...waitJoinAttributes,
};

/** Reads `<Queue>` inside Dial; the text names the queue. */
export function readQueue(el: XmlElement, ctx: ReadContext): QueueNoun {
  rejectChildren(el, ctx);
  const name = nounTarget(el, ctx, 'the queue name');
  return {
    noun: 'Queue',
    name,
    ...readAttributes(el, queueAttributes, ctx, 'name'),
    pos: ctx.pos(el.offset),
  };
}
