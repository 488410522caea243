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

const TARGET_CACHE_LIMIT = 1024;
const targets = new Map<string, Target>();

/** Splits `module[.step[.action]]` (targets repeat, so each is split once; treat as read-only). */
export function parseTarget(target: string): Target {
  const cached = targets.get(target);
  if (cached) return cached;
  const [module = '', step, action] = target.split('.');
  const out: Target = { module };
  if (step) out.step = step;
  if (action) out.action = action;
  if (targets.size < TARGET_CACHE_LIMIT) targets.set(target, Object.freeze(out));
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

/** Adds a rendered verb; a verb whose target expanded to nothing is skipped, and logged. */
function push(ctx: RenderContext, module: string, step: Step, verb: Verb): undefined {
  const missing = missingTarget(verb);
  if (missing) log(ctx, 'exception', `${module}.${step.name}: ${missing}; the step renders nothing`);
  else ctx.verbs.push(verb);
  return undefined;
}

function renderStep(step: Step, module: string, ctx: RenderContext): StepOutcome {
  switch (step.kind) {
    case 'say':
      return push(ctx, module, step, renderSay(step, ctx));
    case 'play':
      return push(ctx, module, step, renderPlay(step, ctx));
    case 'gather':
      return push(ctx, module, step, renderGather(step, module, ctx));
    case 'dial':
      return push(ctx, module, step, renderDial(step, module, ctx));
    case 'record':
      return push(ctx, module, step, renderRecord(step, module, ctx));
    case 'sms':
    case 'email':
    case 'fax':
      return push(ctx, module, step, renderMessage(step, module, ctx));
    case 'hungup':
      return push(ctx, module, step, { verb: 'Hangup' });
    case 'reject':
      return push(
        ctx,
        module,
        step,
        step.reason ? { verb: 'Reject', reason: step.reason } : { verb: 'Reject' },
      );
    case 'pause':
      return push(
        ctx,
        module,
        step,
        step.length !== undefined ? { verb: 'Pause', length: step.length } : { verb: 'Pause' },
      );
    case 'redirect': {
      // A URL that expands to something wins over the next module.
      const expanded = expand(step.url, ctx.vars);
      const url = expanded !== '' || !step.next ? expanded : link(ctx, step.next);
      return push(
        ctx,
        module,
        step,
        step.method ? { verb: 'Redirect', url, method: step.method } : { verb: 'Redirect', url },
      );
    }
    case 'log':
      log(ctx, 'log', expand(step.message, ctx.vars));
      return undefined;
    case 'externalService':
      throw new RenderError('designer.internal', 'external service steps run in renderModule');
    case 'control':
      return runControl(step, ctx);
    case 'ussdSay':
    case 'ussdLanguage':
    case 'ussdCollect':
      return push(ctx, module, step, renderUssd(step, module, ctx));
  }
}

/** Work still under way: a render that waits for an external service, else undefined. */
export type Pending = Promise<void> | undefined;

/**
 * Renders `name` from step `from` on, following routing to other modules in the same response.
 * Entering another module clears the `module_*` variables. Synchronous unless a step waits for
 * an external service: then the rest of the render continues when it answers.
 */
export function renderModule(ctx: RenderContext, name: string, from = 0, leading?: Say): Pending {
  if (leading) ctx.verbs.push(leading);
  return enterModule(ctx, name, from);
}

function enterModule(ctx: RenderContext, name: string, from: number): Pending {
  let current = name;
  let start = from;
  for (;;) {
    const node = moduleOf(ctx, current);
    if (current !== ctx.module) {
      clearModuleVariables(ctx.vars);
      ctx.module = current;
    }
    if (++ctx.hops > MAX_HOPS) {
      throw new RenderError('designer.loop', `more than ${MAX_HOPS} modules entered in one request`);
    }
    const outcome = runSteps(ctx, node, current, start);
    if (outcome instanceof Promise) return outcome;
    if (outcome === undefined) return undefined;
    current = outcome.goto;
    start = 0;
  }
}

/** Runs the steps of a module from `start`; a promise when an external service is called. */
function runSteps(
  ctx: RenderContext,
  node: ProjectNode,
  module: string,
  start: number,
): StepOutcome | Promise<void> {
  for (let i = start; i < node.steps.length; i++) {
    const step = node.steps[i] as Step;
    if (step.kind === 'externalService') {
      return runExternalService(step, ctx).then((outcome) =>
        outcome ? enterModule(ctx, outcome.goto, 0) : continueModule(ctx, node, module, i + 1),
      );
    }
    const outcome = renderStep(step, module, ctx);
    if (outcome) return outcome;
  }
  return undefined;
}

/** The rest of a module after an external service that did not route. */
function continueModule(ctx: RenderContext, node: ProjectNode, module: string, start: number): Pending {
  const outcome = runSteps(ctx, node, module, start);
  if (outcome instanceof Promise || outcome === undefined) return outcome;
  return enterModule(ctx, outcome.goto, 0);
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
export function handleAction(ctx: RenderContext, target: Target): Pending {
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
