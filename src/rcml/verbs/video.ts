import type { ReadContext } from '../context.js';
import type { NounVideo } from '../model.js';
import { readAttributes, rejectChildren, rejectText, reportMisplaced } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, bool, text } from './rules.js';

type VideoAttributes = AttrRules<Omit<NounVideo, 'pos'>>;

/** `<Video>` of a Client or Sip noun (the designer's ClientNounConverter, SipuriNounConverter). */
const legVideoAttributes = {
  enable: bool(),
  resolution: text(),
  overlay: text(),
} as VideoAttributes;

/** `<Video>` of a Conference noun (the designer's ConferenceNounConverter). */
const conferenceVideoAttributes: VideoAttributes = {
  enable: bool(),
  mode: text(),
  resolution: text(),
  layout: text(),
  overlay: text(),
};

/**
 * Reads the children of a Client, Sip or Conference noun: one `<Video>`; anything else is
 * misplaced (skipped with a warning), as is a second `<Video>`.
 */
export function readNounVideo(el: XmlElement, ctx: ReadContext, conference: boolean): NounVideo | undefined {
  let video: NounVideo | undefined;
  for (const child of el.children) {
    if (child.name !== 'Video' || video) {
      reportMisplaced(child, el, ctx, 'rcml.unknown-element');
      continue;
    }
    rejectChildren(child, ctx);
    rejectText(child, ctx);
    const rules = conference ? conferenceVideoAttributes : legVideoAttributes;
    video = { ...readAttributes(child, rules, ctx), pos: ctx.pos(child.offset) };
  }
  return video;
}
