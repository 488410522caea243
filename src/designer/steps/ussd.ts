/**
 * USSD steps (UssdSayStep, UssdLanguageStep, UssdCollectStep). RCML's model has no USSD verbs,
 * so they are rendered as the platform's `<UssdMessage>`, `<Language>` and `<UssdCollect>`
 * elements through the model's unknown-verb form; each collect message is its own
 * `<UssdMessage>` child of `<UssdCollect>`.
 */
import type { UnknownVerb } from '../../rcml/model.js';
import { link, type RenderContext, RenderError } from '../context.js';
import type { Step, UssdCollectStep } from '../schema.js';
import { expand } from '../variables.js';

type UssdStep = Extract<Step, { kind: 'ussdSay' | 'ussdLanguage' | 'ussdCollect' }>;

const message = (text: string): UnknownVerb => ({
  verb: 'Unknown',
  name: 'UssdMessage',
  attributes: {},
  text,
});

/** Renders one USSD step. */
export function renderUssd(step: UssdStep, module: string, ctx: RenderContext): UnknownVerb {
  if (step.kind === 'ussdSay') return message(expand(step.text, ctx.vars));
  if (step.kind === 'ussdLanguage') {
    return { verb: 'Unknown', name: 'Language', attributes: {}, text: step.language ?? '' };
  }
  return {
    verb: 'Unknown',
    name: 'UssdCollect',
    attributes: { action: link(ctx, `${module}.${step.name}.handle`) },
    text: '',
    children: step.messages.map((m) => message(expand(m.text, ctx.vars))),
  };
}

/** What the USSD collect's `handle` action decided. */
export type UssdDecision = { kind: 'next'; module: string | undefined } | { kind: 'again' };

/**
 * The `handle` action: a menu entry picks the next module (none: the collect again); a
 * collected value is stored as `X` (plus `sticky_X` for application scope) and `next` renders.
 */
export function handleUssdCollect(step: UssdCollectStep, ctx: RenderContext): UssdDecision {
  const digits = ctx.params.Digits;
  if (step.gatherType === 'menu') {
    const mapping = step.menu?.mappings.find((m) => m.digits === digits);
    return mapping ? { kind: 'next', module: mapping.next } : { kind: 'again' };
  }
  if (!step.collectdigits)
    throw new RenderError('designer.gather-collect', 'the USSD collect has no collectdigits');
  const { collectVariable, scope, next } = step.collectdigits;
  if (scope === 'application') ctx.vars.set(`sticky_${collectVariable}`, digits ?? '');
  ctx.vars.set(collectVariable, digits ?? '');
  return { kind: 'next', module: next };
}
