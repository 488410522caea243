/** The verb readers by element name. Adding a verb: its file, a model type and one line here. */
import type { ReadContext } from '../context.js';
import type { Verb } from '../model.js';
import type { XmlElement } from '../xml/scan.js';
import { readDial } from './dial.js';
import { readEmail } from './email.js';
import { readEnqueue } from './enqueue.js';
import { readFax } from './fax.js';
import { readGather } from './gather.js';
import { readHangup } from './hangup.js';
import { readHold } from './hold.js';
import { readLeave } from './leave.js';
import { readPause } from './pause.js';
import { readPlay } from './play.js';
import { readRecord } from './record.js';
import { readRedirect } from './redirect.js';
import { readReject } from './reject.js';
import { readResume } from './resume.js';
import { readSay } from './say.js';
import { readSms } from './sms.js';

export type VerbReader = (el: XmlElement, ctx: ReadContext) => Verb;

export const VERB_READERS: { readonly [name: string]: VerbReader } = {
  Say: readSay,
  Play: readPlay,
  Pause: readPause,
  Gather: readGather,
  Record: readRecord,
  Dial: readDial,
  Enqueue: readEnqueue,
  Leave: readLeave,
  Redirect: readRedirect,
  Hold: readHold,
  Resume: readResume,
  Hangup: readHangup,
  Reject: readReject,
  Sms: readSms,
  Email: readEmail,
  Fax: readFax,
};
