// Public API of the RCML language layer.

export { BuildError, type BuildErrorCode, type BuildOptions, buildRcml } from './build.js';
export { lintRcml } from './lint.js';
export type * from './model.js';
export { NOUN_NAMES, VERB_NAMES } from './names.js';
export { DEFAULT_MAX_BYTES, parseRcml } from './parse.js';
export {
  type ClientAttributes,
  type ConferenceAttributes,
  type DialAttributes,
  DialBuilder,
  type EmailAttributes,
  type EnqueueAttributes,
  type FaxAttributes,
  type GatherAttributes,
  GatherBuilder,
  type NumberAttributes,
  type PauseAttributes,
  type PlayAttributes,
  PromptMethods,
  type QueueAttributes,
  type RecordAttributes,
  type RedirectAttributes,
  type RejectAttributes,
  type SayAttributes,
  type SipAttributes,
  type SmsAttributes,
  VoiceResponse,
} from './response-builder.js';
export { conferenceDefaults } from './verbs/conference.js';
export { dialDefaults, textTarget } from './verbs/dial.js';
export { emailDefaults } from './verbs/email.js';
export { enqueueDefaults } from './verbs/enqueue.js';
export { faxDefaults } from './verbs/fax.js';
export { gatherDefaults } from './verbs/gather.js';
export { legNounDefaults } from './verbs/leg-noun.js';
export { pauseDefaults } from './verbs/pause.js';
export { playDefaults } from './verbs/play.js';
export { queueDefaults } from './verbs/queue.js';
export { recordDefaults } from './verbs/record.js';
export { redirectDefaults } from './verbs/redirect.js';
export { rejectDefaults } from './verbs/reject.js';
export { sayDefaults } from './verbs/say.js';
export { smsDefaults } from './verbs/sms.js';
