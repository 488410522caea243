/** gather: the `<Gather>` verb and its `handle` action (GatherStep.render / handleAction). */
import type { Gather, GatherPrompt } from '../../rcml/model.js';
import { link, type RenderContext, RenderError } from '../context.js';
import { compileBounded, matchesWhole } from '../regex.js';
import type { GatherStep, MessageSay } from '../schema.js';
import { expand } from '../variables.js';
import { renderPlay } from './play.js';
import { renderSay } from './say.js';

/** The input a gather reads: its `inputType`, missing or unknown = dtmf (case-insensitive). */
export type InputKind = 'dtmf' | 'speech' | 'dtmf speech';

export function inputKindOf(step: GatherStep): InputKind {
  const t = (step.inputType ?? '').toLowerCase();
  return t === 'speech' || t === 'dtmf speech' ? t : 'dtmf';
}

/** gather -> `<Gather action="controller?target=M.S.handle" ...>` with nested Say/Play. */
export function renderGather(step: GatherStep, module: string, ctx: RenderContext): Gather {
  const prompts: GatherPrompt[] = step.steps.map((p) =>
    p.kind === 'say' ? renderSay(p, ctx) : renderPlay(p, ctx),
  );
  const gather: Gather = {
    verb: 'Gather',
    action: link(ctx, `${module}.${step.name}.handle`),
    prompts,
  };
  if (step.method) gather.method = step.method;
  if (step.timeout !== undefined) gather.timeout = step.timeout;
  if (step.finishOnKey) gather.finishOnKey = step.finishOnKey;
  if (step.numDigits !== undefined) gather.numDigits = step.numDigits;
  if (step.inputType) gather.input = step.inputType as Gather['input'];
  if (step.language) gather.language = step.language;
  // hints and the partial result callback are written as saved, without `$` expansion.
  if (step.hints) gather.hints = step.hints;
  if (step.inputType?.toLowerCase() !== 'dtmf' && step.partialResultCallback) {
    gather.partialResultCallback = step.partialResultCallback;
    gather.partialResultCallbackMethod = step.partialResultCallbackMethod ?? 'POST';
  }
  return gather;
}

/**
 * Whole-string regex match on the bounded engine; a pattern it cannot run (invalid, beyond
 * RE2's syntax or too long) never matches, nor does text longer than its limit.
 */
export function fullMatch(pattern: string, input: string): boolean {
  const compiled = compileBounded(pattern);
  return compiled.ok && matchesWhole(compiled.regex, input);
}

/** An empty input never passes; userPattern is a character class, regexPattern a whole match. */
function isValid(validation: GatherStep['validation'], input: string, ctx: RenderContext): boolean {
  const pattern = validation?.userPattern
    ? `[${expand(validation.userPattern, ctx.vars)}]`
    : validation?.regexPattern
      ? expand(validation.regexPattern, ctx.vars)
      : undefined;
  if (pattern === undefined) return true;
  return input !== '' && fullMatch(pattern, input);
}

/** What the `handle` action decided. */
export type GatherDecision =
  | { kind: 'next'; module: string | undefined }
  | { kind: 'invalid'; speech: boolean }
  /** Nothing to render: an empty body (an unstable or empty speech result). */
  | { kind: 'nothing' };

type Channel = { speech: boolean; input: string } | { kind: 'nothing' } | { kind: 'none' };

/** Which input the request carries for this gather's input type. */
function channelOf(kind: InputKind, digits: string, unstable: string, speech: string): Channel {
  if (kind === 'dtmf') return { speech: false, input: digits };
  if (kind === 'dtmf speech' && digits !== '') return { speech: false, input: digits };
  if (unstable !== '') return { kind: 'nothing' };
  if (speech !== '') return { speech: true, input: speech };
  return kind === 'speech' ? { kind: 'nothing' } : { kind: 'none' };
}

/**
 * Handles the gather's action request. `Digits`, `UnstableSpeechResult` and `SpeechResult`
 * become `core_*` variables; the input type decides which one is read; a matching menu entry
 * or a valid collected value picks the next module.
 */
export function handleGather(step: GatherStep, ctx: RenderContext): GatherDecision {
  const { Digits, UnstableSpeechResult, SpeechResult } = ctx.params;
  if (Digits !== undefined) ctx.vars.set('core_Digits', Digits);
  if (UnstableSpeechResult !== undefined) ctx.vars.set('core_UnstableSpeechResult', UnstableSpeechResult);
  if (SpeechResult !== undefined) ctx.vars.set('core_SpeechResult', SpeechResult);
  const channel = channelOf(inputKindOf(step), Digits ?? '', UnstableSpeechResult ?? '', SpeechResult ?? '');
  if ('kind' in channel) {
    return channel.kind === 'nothing' ? channel : { kind: 'invalid', speech: false };
  }
  const { speech, input } = channel;
  if (step.gatherType === 'menu') {
    // Speech keys are regexes matching the whole result, case-sensitively.
    const mapping = speech
      ? step.menu?.speechMappings.find((m) => fullMatch(m.key, input))
      : step.menu?.mappings.find((m) => m.digits === input);
    return mapping ? { kind: 'next', module: mapping.next } : { kind: 'invalid', speech };
  }
  const collect = speech ? step.collectspeech : step.collectdigits;
  const validation = speech ? step.speechValidation : step.validation;
  if (!collect) {
    throw new RenderError(
      'designer.gather-collect',
      `the gather has no ${speech ? 'collectspeech' : 'collectdigits'}`,
    );
  }
  if (!isValid(validation, input, ctx)) return { kind: 'invalid', speech };
  const { collectVariable, scope, next } = collect;
  ctx.vars.set(scope === 'application' ? `sticky_${collectVariable}` : `module_${collectVariable}`, input);
  ctx.vars.set(collectVariable, input);
  return { kind: 'next', module: next };
}

/** The leading `<Say>` of a re-rendered gather: dtmf and speech each have their own message. */
export function invalidMessageOf(step: GatherStep, speech: boolean): MessageSay | undefined {
  return speech ? step.speechInvalidMessage : step.invalidMessage;
}
