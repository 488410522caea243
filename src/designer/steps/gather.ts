/** gather: the `<Gather>` verb and its `handle` action (menu, collect, validation). */
import type { Gather, GatherPrompt } from '../../rcml/model.js';
import { link, type RenderContext } from '../context.js';
import type { GatherStep } from '../schema.js';
import { expand, storeVariable } from '../variables.js';
import { renderPlay } from './play.js';
import { renderSay } from './say.js';

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
  if (step.inputType) gather.input = step.inputType;
  if (step.language) gather.language = step.language;
  if (step.hints) gather.hints = expand(step.hints, ctx.vars);
  if (step.inputType && step.inputType !== 'dtmf' && step.partialResultCallback) {
    gather.partialResultCallback = expand(step.partialResultCallback, ctx.vars);
    if (step.partialResultCallbackMethod) {
      gather.partialResultCallbackMethod = step.partialResultCallbackMethod;
    }
  }
  return gather;
}

/** Whole-string regex match; an invalid pattern never matches. */
export function fullMatch(pattern: string, input: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(input);
  } catch {
    return false;
  }
}

/** Speech keys match anywhere in the result, ignoring case. */
function speechMatch(pattern: string, input: string): boolean {
  try {
    return new RegExp(pattern, 'i').test(input);
  } catch {
    return false;
  }
}

function isValid(validation: GatherStep['validation'], input: string, ctx: RenderContext): boolean {
  if (validation?.userPattern) return fullMatch(`[${expand(validation.userPattern, ctx.vars)}]`, input);
  if (validation?.regexPattern) return fullMatch(expand(validation.regexPattern, ctx.vars), input);
  return true;
}

/** What the `handle` action decided. */
export type GatherDecision =
  | { kind: 'next'; module: string | undefined }
  | { kind: 'invalid'; speech: boolean };

/**
 * Handles the gather's action request: `Digits`/`SpeechResult` become `core_Digits` /
 * `core_SpeechResult`; a matching menu entry or a valid collected value picks the next module.
 */
export function handleGather(step: GatherStep, ctx: RenderContext): GatherDecision {
  const digits = ctx.params.Digits;
  const speech = ctx.params.SpeechResult;
  if (digits !== undefined) ctx.vars.set('core_Digits', digits);
  if (speech !== undefined) ctx.vars.set('core_SpeechResult', speech);
  const bySpeech = !digits && Boolean(speech);
  if (step.gatherType === 'menu') {
    const menu = step.menu;
    const next = bySpeech
      ? menu?.speechMappings.find((m) => speechMatch(m.key, speech ?? ''))?.next
      : menu?.mappings.find((m) => m.digits === (digits ?? ''))?.next;
    return next ? { kind: 'next', module: next } : { kind: 'invalid', speech: bySpeech };
  }
  const collect = bySpeech ? step.collectspeech : step.collectdigits;
  const input = (bySpeech ? speech : digits) ?? '';
  const validation = bySpeech ? step.speechValidation : step.validation;
  if (!collect || !isValid(validation, input, ctx)) return { kind: 'invalid', speech: bySpeech };
  storeVariable(ctx.vars, collect.collectVariable, input, collect.scope);
  return { kind: 'next', module: collect.next };
}

/** The leading `<Say>` of a re-rendered gather after invalid input, if the step has one. */
export function invalidMessageOf(step: GatherStep, speech: boolean) {
  return speech ? (step.speechInvalidMessage ?? step.invalidMessage) : step.invalidMessage;
}
