import type { Verb, VerbName } from '../../rcml/model.js';
import { dialVerb } from './dial.js';
import { emailVerb } from './email.js';
import { enqueueVerb } from './enqueue.js';
import { faxVerb } from './fax.js';
import { gatherVerb } from './gather.js';
import { hangupVerb } from './hangup.js';
import { holdVerb } from './hold.js';
import { leaveVerb } from './leave.js';
import { pauseVerb } from './pause.js';
import { playVerb } from './play.js';
import { recordVerb } from './record.js';
import { redirectVerb } from './redirect.js';
import { rejectVerb } from './reject.js';
import { resumeVerb } from './resume.js';
import { sayVerb } from './say.js';
import { smsVerb } from './sms.js';
import type { VerbDispatch, VerbHandler } from './types.js';
import { unknownVerb } from './unknown.js';

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
  Dial: dialVerb,
  Enqueue: enqueueVerb,
  Leave: leaveVerb,
  Hold: holdVerb,
  Resume: resumeVerb,
  Email: emailVerb,
  Fax: faxVerb,
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

/** Runs a verb with its registered behaviour (unknown verbs: a warning, then the next verb). */
export const dispatchVerb: VerbDispatch = (ctx, verb) => (verbHandlers[verb.verb] ?? unknownVerb)(ctx, verb);
