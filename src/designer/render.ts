/** Renders one request: a target (`module[.step[.action]]`) with its parameters -> RCML verbs. */
import type { Say, Verb } from '../rcml/model.js';
import { link, log, type RenderContext, RenderError, type StepOutcome } from './context.js';
import { recordingHttpUrl } from './recordings.js';
import type { ProjectNode, Step } from './schema.js';
import { runControl } from './steps/control.js';
import { DIAL_RESULT_PARAMETERS, renderDial } from './steps/dial.js';
import { runExternalService } from './steps/external-service.js';
import { handleGather, invalidMessageOf, renderGather } from './steps/gather.js';
import { MESSAGE_RESULT_PARAMETERS, renderMessage } from './steps/message.js';
import { renderPlay } from './steps/play.js';
import { RECORD_RESULT_PARAMETERS, renderRecord } from './steps/record.js';
import { renderSay } from './steps/say.js';
import { handleUssdCollect, renderUssd } from './steps/ussd.js';
import { clearModuleVariables, expand } from './variables.js';

/** Most modules one request may pass through (routing and continueTo), to stop loops. */
export const MAX_HOPS = 64;

/** A parsed target. */
export interface Target {
  module: string;
  step?: string;
  action?: string;
}

/** Splits `module[.step[.action]]`. */
export function parseTarget(target: string): Target {
  const [module = '', step, action] = target.split('.');
  const out: Target = { module };
  if (step) out.step = step;
  if (action) out.action = action;
  return out;
}

function moduleOf(ctx: RenderContext, name: string): ProjectNode {
  const node = ctx.app.modules.get(name);
  if (!node) throw new RenderError('designer.unknown-module', `no module named "${name}"`);
  return node;
}

/** Why a rendered verb cannot run (its required text expanded to nothing), or undefined. */
function missingTarget(verb: Verb): string | undefined {
  switch (verb.verb) {
    case 'Dial':
      if (verb.nouns.length === 0) return '<Dial> has no destination';
      return undefined;
    case 'Redirect':
      return verb.url.trim() === '' ? '<Redirect> has an empty URL' : undefined;
    case 'Sms':
    case 'Email':
    case 'Fax':
      return verb.text.trim() === '' ? `<${verb.verb}> has an empty text` : undefined;
    default:
      return undefined;
  }
}

async function renderStep(step: Step, module: string, ctx: RenderContext): Promise<StepOutcome> {
  const push = (verb: Verb): undefined => {
    const missing = missingTarget(verb);
    // A variable that expanded to nothing leaves a verb RCML cannot run: skip it, say why.
    if (missing) log(ctx, 'exception', `${module}.${step.name}: ${missing}; the step renders nothing`);
    else ctx.verbs.push(verb);
    return undefined;
  };
  switch (step.kind) {
    case 'say':
      return push(renderSay(step, ctx));
    case 'play':
      return push(renderPlay(step, ctx));
    case 'gather':
      return push(renderGather(step, module, ctx));
    case 'dial':
      return push(renderDial(step, module, ctx));
    case 'record':
      return push(renderRecord(step, module, ctx));
    case 'sms':
    case 'email':
    case 'fax':
      return push(renderMessage(step, module, ctx));
    case 'hungup':
      return push({ verb: 'Hangup' });
    case 'reject':
      return push(step.reason ? { verb: 'Reject', reason: step.reason } : { verb: 'Reject' });
    case 'pause':
      return push(step.length !== undefined ? { verb: 'Pause', length: step.length } : { verb: 'Pause' });
    case 'redirect': {
      // A URL that expands to something wins over the next module.
      const expanded = expand(step.url, ctx.vars);
      const url = expanded !== '' || !step.next ? expanded : link(ctx, step.next);
      return push(step.method ? { verb: 'Redirect', url, method: step.method } : { verb: 'Redirect', url });
    }
    case 'log':
      log(ctx, 'log', expand(step.message, ctx.vars));
      return undefined;
    case 'externalService':
      return runExternalService(step, ctx);
    case 'control':
      return runControl(step, ctx);
    case 'ussdSay':
    case 'ussdLanguage':
    case 'ussdCollect':
      return push(renderUssd(step, module, ctx));
  }
}

/**
 * Renders `name` from step `from` on, following routing to other modules in the same response.
 * Entering another module clears the `module_*` variables.
 */
export async function renderModule(ctx: RenderContext, name: string, from = 0, leading?: Say): Promise<void> {
  let current = name;
  let start = from;
  if (leading) ctx.verbs.push(leading);
  for (;;) {
    const node = moduleOf(ctx, current);
    if (current !== ctx.module) {
      clearModuleVariables(ctx.vars);
      ctx.module = current;
    }
    if (++ctx.hops > MAX_HOPS) {
      throw new RenderError('designer.loop', `more than ${MAX_HOPS} modules entered in one request`);
    }
    let goto: string | undefined;
    for (let i = start; i < node.steps.length; i++) {
      const outcome = await renderStep(node.steps[i] as Step, current, ctx);
      if (outcome) {
        goto = outcome.goto;
        break;
      }
    }
    if (goto === undefined) return;
    current = goto;
    start = 0;
  }
}

/** Stores the named request parameters as `core_*` variables. */
function storeResults(ctx: RenderContext, names: readonly string[]): void {
  for (const name of names) {
    const value = ctx.params[name];
    if (value !== undefined) ctx.vars.set(`core_${name}`, value);
  }
}

/** Recording results: `RecordingUrl` as an HTTP URL, `PublicRecordingUrl` as given. */
function storeRecording(ctx: RenderContext): void {
  const { PublicRecordingUrl, RecordingUrl } = ctx.params;
  if (PublicRecordingUrl !== undefined) ctx.vars.set('core_PublicRecordingUrl', PublicRecordingUrl);
  if (RecordingUrl !== undefined) {
    ctx.vars.set('core_RecordingUrl', recordingHttpUrl(RecordingUrl, ctx.app.recordingsBaseUrl));
  }
}

/** Handles `module.step.action`: stores the action's results, then renders what comes next. */
export async function handleAction(ctx: RenderContext, target: Target): Promise<void> {
  const node = moduleOf(ctx, target.module);
  const index = node.steps.findIndex((s) => s.name === target.step);
  const step = node.steps[index];
  if (!step) {
    throw new RenderError('designer.unknown-step', `module "${target.module}" has no step "${target.step}"`);
  }
  // An action whose next module is not set fails on the platform: the answer is a Hangup.
  const next = (module: string | undefined) => {
    if (!module)
      throw new RenderError('designer.no-next', `step "${target.module}.${step.name}" has no next module`);
    return renderModule(ctx, module);
  };
  if (target.action === 'handle' && step.kind === 'gather') {
    const decision = handleGather(step, ctx);
    if (decision.kind === 'nothing') {
      ctx.emptyBody = true;
      return;
    }
    if (decision.kind === 'next') return next(decision.module);
    const message = invalidMessageOf(step, decision.speech);
    return renderModule(ctx, target.module, index, message ? renderSay(message, ctx) : undefined);
  }
  if (target.action === 'handle' && step.kind === 'ussdCollect') {
    const decision = handleUssdCollect(step, ctx);
    return decision.kind === 'next' ? next(decision.module) : renderModule(ctx, target.module, index);
  }
  if (target.action === 'actionhandler') {
    if (step.kind === 'dial') {
      if (!step.nextModule) return next(undefined);
      storeRecording(ctx);
      storeResults(ctx, DIAL_RESULT_PARAMETERS);
      return next(step.nextModule);
    }
    if (step.kind === 'record') {
      if (!step.next) return next(undefined);
      storeRecording(ctx);
      storeResults(ctx, RECORD_RESULT_PARAMETERS);
      return next(step.next);
    }
    if (step.kind === 'sms' || step.kind === 'email' || step.kind === 'fax') {
      if (!step.next) return next(undefined);
      storeResults(ctx, MESSAGE_RESULT_PARAMETERS[step.kind]);
      return next(step.next);
    }
  }
  throw new RenderError(
    'designer.unknown-action',
    `step "${target.module}.${target.step}" (${step.kind}) has no action "${target.action}"`,
  );
}
