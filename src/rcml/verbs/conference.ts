import type { ReadContext } from '../context.js';
import type { ConferenceNoun } from '../model.js';
import { readAttributes } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { nounTarget } from './noun-target.js';
import { type AttrRules, bool, int, method, text } from './rules.js';
import { readNounVideo } from './video.js';

/** Values used when `<Conference>` leaves an attribute out. */
export const conferenceDefaults = {
  muted: false,
  beep: true,
  startConferenceOnEnter: true,
  endConferenceOnExit: false,
  waitMethod: 'POST',
  maxParticipants: 40,
} as const satisfies Required<
  Pick<
    ConferenceNoun,
    'muted' | 'beep' | 'startConferenceOnEnter' | 'endConferenceOnExit' | 'waitMethod' | 'maxParticipants'
  >
>;

export const conferenceAttributes: AttrRules<Omit<ConferenceNoun, 'noun' | 'name' | 'video' | 'pos'>> = {
  muted: bool(),
  beep: bool(),
  startConferenceOnEnter: bool(),
  endConferenceOnExit: bool(),
  waitUrl: text(),
  waitMethod: method('13234'),
  maxParticipants: int(1),
};

/** Reads `<Conference>` inside Dial; the text names the room. */
export function readConference(el: XmlElement, ctx: ReadContext): ConferenceNoun {
  const video = readNounVideo(el, ctx, true);
  const name = nounTarget(el, ctx, 'the conference room name', video !== undefined);
  return {
    noun: 'Conference',
    name,
    ...readAttributes(el, conferenceAttributes, ctx, 'name'),
    ...(video && { video }),
    pos: ctx.pos(el.offset),
  };
}
