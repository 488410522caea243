import type { ReadContext } from '../context.js';
import type { Record } from '../model.js';
import { readAttributes, rejectChildren, rejectText } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { type AttrRules, bool, int, matching, method, oneOf, orElse, text } from './rules.js';

/** Values used when `<Record>` leaves an attribute out. */
export const recordDefaults = {
  method: 'POST',
  timeout: 5,
  finishOnKey: '1234567890*#',
  maxLength: 3600,
  playBeep: true,
  transcribe: false,
  media: 'audio_only',
} as const satisfies Required<
  Pick<Record, 'method' | 'timeout' | 'finishOnKey' | 'maxLength' | 'playBeep' | 'transcribe' | 'media'>
>;

export const recordAttributes: AttrRules<Omit<Record, 'verb' | 'pos'>> = {
  action: text(),
  method: method('13610'),
  // Invalid timeout and media are 13612 and an empty or invalid finishOnKey means `#`, as in
  // the platform's BaseVoiceInterpreter.CreatingRecording.
  timeout: int(1, '13612'),
  finishOnKey: orElse(
    matching(/^(?:|-1|[0-9*#]+)$/, '13613', 'keys from 0-9, * and #, or -1 to disable'),
    '#',
  ),
  maxLength: int(1, '13612'),
  playBeep: bool(),
  transcribe: bool(),
  transcribeCallback: text(),
  media: oneOf(['audio_only', 'video_only', 'audio_video'] as const, '13612'),
};

/** Reads `<Record>`. */
export function readRecord(el: XmlElement, ctx: ReadContext): Record {
  rejectChildren(el, ctx);
  rejectText(el, ctx);
  return { verb: 'Record', ...readAttributes(el, recordAttributes, ctx), pos: ctx.pos(el.offset) };
}
