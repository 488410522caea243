import type { ReadContext } from '../context.js';
import type { Resume } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import type { AttrRules } from './rules.js';

/** `<Resume>` has no attributes. */
export const resumeAttributes: AttrRules<Omit<Resume, 'verb' | 'pos'>> = {};

/** Reads `<Resume/>`. */
export function readResume(el: XmlElement, ctx: ReadContext): Resume {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  readAttributes(el, resumeAttributes, ctx);
  return { verb: 'Resume', pos: ctx.pos(el.offset) };
}
