/** dial -> `<Dial>` with Number/Client/Conference/Sip nouns. */
import type { Dial, DialNoun, NounVideo } from '../../rcml/model.js';
import { link, type RenderContext } from '../context.js';
import type { DialNounSpec, DialStep } from '../schema.js';
import { expand } from '../variables.js';

/** Request parameters the dial action handler stores as `core_*`. */
export const DIAL_RESULT_PARAMETERS = [
  'DialCallStatus',
  'DialCallSid',
  'DialCallDuration',
  'DialRingDuration',
] as const;

function statusCallbackOf(
  noun: { statusCallback?: string; statusCallbackModule?: string },
  ctx: RenderContext,
): string | undefined {
  // A status callback URL is written as saved and wins over a status callback module.
  if (noun.statusCallback) return noun.statusCallback;
  if (noun.statusCallbackModule) return link(ctx, noun.statusCallbackModule);
  return undefined;
}

/**
 * The noun's `<Video>` when the application's video option is on and the noun enables video,
 * as ClientDialNoun, SipuriDialNoun and ConferenceDialNoun.render fill it: `enable`, and the
 * saved values as they are (`mode` and `layout` for a conference).
 */
function videoOf(spec: DialNounSpec, ctx: RenderContext): NounVideo | undefined {
  if (!ctx.app.videoSupport || spec.enableVideo !== true || spec.dialType === 'number') return undefined;
  const video: NounVideo = { enable: true };
  if (spec.dialType === 'conference' && spec.videoMode !== undefined) video.mode = spec.videoMode;
  if (spec.videoResolution !== undefined) video.resolution = spec.videoResolution;
  if (spec.dialType === 'conference' && spec.videoLayout !== undefined) video.layout = spec.videoLayout;
  if (spec.videoOverlay !== undefined) video.overlay = spec.videoOverlay;
  return video;
}

function renderNoun(spec: DialNounSpec, ctx: RenderContext): DialNoun {
  const destination = expand(spec.destination, ctx.vars);
  const video = videoOf(spec, ctx);
  if (spec.dialType === 'conference') {
    const noun: DialNoun = { noun: 'Conference', name: destination };
    if (spec.muted !== undefined) noun.muted = spec.muted;
    if (spec.beep !== undefined) noun.beep = spec.beep;
    if (spec.startConferenceOnEnter !== undefined) {
      noun.startConferenceOnEnter = spec.startConferenceOnEnter;
    }
    if (spec.endConferenceOnExit !== undefined) noun.endConferenceOnExit = spec.endConferenceOnExit;
    if (spec.maxParticipants !== undefined) noun.maxParticipants = spec.maxParticipants;
    if (spec.waitModule) noun.waitUrl = link(ctx, spec.waitModule);
    else if (spec.waitUrl) noun.waitUrl = expand(spec.waitUrl, ctx.vars);
    if (spec.waitMethod) noun.waitMethod = spec.waitMethod;
    if (video) noun.video = video;
    return noun;
  }
  const url = spec.beforeConnectModule ? link(ctx, spec.beforeConnectModule) : undefined;
  const statusCallback = statusCallbackOf(spec, ctx);
  const noun: DialNoun =
    spec.dialType === 'number'
      ? { noun: 'Number', number: destination }
      : spec.dialType === 'client'
        ? { noun: 'Client', name: destination }
        : { noun: 'Sip', uri: destination };
  if (spec.dialType === 'number' && spec.sendDigits && noun.noun === 'Number') {
    noun.sendDigits = spec.sendDigits;
  }
  if (url && spec.dialType !== 'sipuri') noun.url = url;
  if (statusCallback) noun.statusCallback = statusCallback;
  if (video && noun.noun !== 'Number') noun.video = video;
  return noun;
}

function destinationOf(noun: DialNoun): string {
  switch (noun.noun) {
    case 'Number':
      return noun.number;
    case 'Sip':
      return noun.uri;
    default:
      return noun.name;
  }
}

/** dial -> `<Dial timeout timeLimit callerId record [action method]>`; action only with `nextModule`. */
export function renderDial(step: DialStep, module: string, ctx: RenderContext): Dial {
  // A destination that expands to nothing cannot be dialled: that noun is left out.
  const nouns = step.dialNouns.map((n) => renderNoun(n, ctx)).filter((n) => destinationOf(n).trim() !== '');
  const dial: Dial = { verb: 'Dial', nouns };
  // Attributes in the platform's order (RcmlDialStep): action, method, timeout, timeLimit, ...
  if (step.nextModule) {
    dial.action = link(ctx, `${module}.${step.name}.actionhandler`);
    if (step.method) dial.method = step.method;
  }
  if (step.timeout !== undefined) dial.timeout = step.timeout;
  if (step.timeLimit !== undefined) dial.timeLimit = step.timeLimit;
  if (step.callerId) dial.callerId = expand(step.callerId, ctx.vars);
  if (step.record !== undefined) dial.record = step.record;
  return dial;
}
