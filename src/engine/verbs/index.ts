import type { Verb, VerbName } from '../../rcml/model.js';
import { gatherVerb } from './gather.js';
import { hangupVerb } from './hangup.js';
import { pauseVerb } from './pause.js';
import { playVerb } from './play.js';
import { recordVerb } from './record.js';
import { redirectVerb } from './redirect.js';
import { rejectVerb } from './reject.js';
import { sayVerb } from './say.js';
import { smsVerb } from './sms.js';
import type { VerbHandler } from './types.js';
import { unknownVerb } from './unknown.js';
import { unsupportedVerb } from './unsupported.js';

/** Handler per verb name; each handler receives its own verb type. */
export type VerbRegistry = { [K in VerbName]?: VerbHandler<Extract<Verb, { verb: K }>> };

const registry: VerbRegistry = {
  Say: sayVerb,
  Play: playVerb,
  Pause: pauseVerb,
  Gather: gatherVerb,
  Record: recordVerb,
  Redirect: redirectVerb,
  Hangup: hangupVerb,
  Reject: rejectVerb,
  Sms: smsVerb,
  Dial: unsupportedVerb,
  Enqueue: unsupportedVerb,
  Leave: unsupportedVerb,
  Hold: unsupportedVerb,
  Resume: unsupportedVerb,
  Email: unsupportedVerb,
  Fax: unsupportedVerb,
  Unknown: unknownVerb,
};

/** The live registry, viewed with a uniform signature for dispatch. */
export const verbHandlers = registry as { readonly [K in VerbName]?: VerbHandler<Verb> };

/** Installs (or replaces) the behaviour of a verb, for every engine in this process. */
export function registerVerb<K extends VerbName>(
  name: K,
  handler: VerbHandler<Extract<Verb, { verb: K }>>,
): void {
  (registry as { [N in VerbName]?: unknown })[name] = handler;
}
