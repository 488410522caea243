/**
 * USSD steps. RCML has no USSD verbs in the model, so they are rendered as the platform's
 * `<UssdMessage>`, `<Language>` and `<UssdCollect>` elements through the model's unknown-verb
 * form (the collect's messages become its text, one per line).
 */
import type { UnknownVerb } from '../../rcml/model.js';
import { link, type RenderContext } from '../context.js';
import type { Step, UssdCollectStep } from '../schema.js';
import { expand } from '../variables.js';

type UssdStep = Extract<Step, { kind: 'ussdSay' | 'ussdLanguage' | 'ussdCollect' }>;

/** Renders one USSD step. */
export function renderUssd(step: UssdStep, module: string, ctx: RenderContext): UnknownVerb {
  if (step.kind === 'ussdSay') {
    return { verb: 'Unknown', name: 'UssdMessage', attributes: {}, text: expand(step.text, ctx.vars) };
  }
  if (step.kind === 'ussdLanguage') {
    return { verb: 'Unknown', name: 'Language', attributes: {}, text: step.language ?? '' };
  }
  return {
    verb: 'Unknown',
    name: 'UssdCollect',
    attributes: { action: link(ctx, `${module}.${step.name}.handle`) },
    text: ussdText(step, ctx),
  };
}

function ussdText(step: UssdCollectStep, ctx: RenderContext): string {
  const lines = step.messages.map((m) => expand(m.text, ctx.vars));
  if (step.text) lines.unshift(expand(step.text, ctx.vars));
  return lines.join('\n');
}

/** The `handle` action of a USSD collect: menu digits or a collected value pick the next module. */
export function handleUssdCollect(step: UssdCollectStep, ctx: RenderContext): string | undefined {
  const digits = ctx.params.Digits ?? '';
  ctx.vars.set('core_Digits', digits);
  if (step.gatherType === 'menu') return step.menu?.mappings.find((m) => m.digits === digits)?.next;
  if (!step.collectdigits) return undefined;
  const { collectVariable, scope, next } = step.collectdigits;
  ctx.vars.set(scope === 'application' ? `sticky_${collectVariable}` : `module_${collectVariable}`, digits);
  ctx.vars.set(collectVariable, digits);
  return next;
}
