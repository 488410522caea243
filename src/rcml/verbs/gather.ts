import type { ReadContext } from '../context.js';
import type { Gather, GatherPrompt } from '../model.js';
import { readAttributes, rejectText, reportMisplaced } from '../read.js';
import type { XmlElement } from '../xml/scan.js';
import { readPause } from './pause.js';
import { readPlay } from './play.js';
import { type AttrRules, bool, int, matching, method, oneOf, text } from './rules.js';
import { gatherSayAttributes, readSay } from './say.js';

/**
 * Values used when `<Gather>` leaves an attribute out. `numDigits` has no default: without it
 * input is unlimited and ends on `finishOnKey` or the timeout.
 */
export const gatherDefaults = {
  method: 'POST',
  timeout: 5,
  finishOnKey: '#',
  input: 'dtmf',
  language: 'en-US',
  partialResultCallbackMethod: 'POST',
  actionOnEmptyResult: false,
} as const satisfies Required<
  Pick<
    Gather,
    | 'method'
    | 'timeout'
    | 'finishOnKey'
    | 'input'
    | 'language'
    | 'partialResultCallbackMethod'
    | 'actionOnEmptyResult'
  >
>;

export const gatherAttributes: AttrRules<Omit<Gather, 'verb' | 'prompts' | 'pos'>> = {
  action: text(),
  method: method('14104'),
  timeout: int(1, '13313'),
  finishOnKey: matching(/^[0-9*#]?$/, '13310', 'one of 0-9, * or #, or empty for the default #'),
  numDigits: int(1, '13314'),
  input: oneOf(['dtmf', 'speech', 'dtmf speech'] as const, undefined, (raw) => {
    const parts = raw.trim().toLowerCase().split(/\s+/).sort();
    return parts.join(' ');
  }),
  language: text(),
  hints: text(),
  partialResultCallback: text(),
  partialResultCallbackMethod: method(),
  actionOnEmptyResult: bool(),
};

const PROMPT_READERS: { readonly [name: string]: (el: XmlElement, ctx: ReadContext) => GatherPrompt } = {
  Say: (el, ctx) => readSay(el, ctx, gatherSayAttributes),
  Play: readPlay,
  Pause: readPause,
};

/** Reads `<Gather>` and its nested Say, Play and Pause prompts; other verbs are nesting errors. */
export function readGather(el: XmlElement, ctx: ReadContext): Gather {
  rejectText(el, ctx);
  const prompts: GatherPrompt[] = [];
  for (const child of el.children) {
    const read = Object.hasOwn(PROMPT_READERS, child.name) ? PROMPT_READERS[child.name] : undefined;
    if (read) prompts.push(read(child, ctx));
    else reportMisplaced(child, el, ctx, 'rcml.unknown-verb');
  }
  return { verb: 'Gather', ...readAttributes(el, gatherAttributes, ctx), prompts, pos: ctx.pos(el.offset) };
}
