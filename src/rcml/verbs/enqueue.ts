import type { ReadContext } from '../context.js';
import type { Enqueue } from '../model.js';
import { readAttributes, rejectChildren, requiredText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { waitJoinAttributes, waitJoinDefaults } from './queue-attributes.js';
import { type AttrRules, method, text } from './rules.js';

/** Values used when `<Enqueue>` leaves an attribute out. */
export const enqueueDefaults = waitJoinDefaults;

export const enqueueAttributes: AttrRules<Omit<Enqueue, 'verb' | 'name' | 'pos'>> = {
  action: text(),
  method: method(),
  ...waitJoinAttributes,
};

/** Reads `<Enqueue>queue name</Enqueue>`; the name is required. */
export function readEnqueue(el: XmlElement, ctx: ReadContext): Enqueue {
  rejectChildren(el, ctx);
  const name = requiredText(el, ctx, 'the queue name');
  return { verb: 'Enqueue', name, ...readAttributes(el, enqueueAttributes, ctx), pos: ctx.pos(el.offset) };
}
