/**
 * zod schemas of a Visual Designer project in the current format (1.15). Older formats are
 * brought to this shape by `upgrade.ts` before validation. Unknown keys (the editor's `iface`
 * objects and the like) are dropped; `null` is accepted wherever a field is optional because
 * the editor writes `null` for unset fields.
 */
import { z } from 'zod';
import { bool, int, list, messageBase, method, optional, stepBase, str } from './schema-fields.js';
import {
  controlStepSchema,
  externalServiceStepSchema,
  type valueExtractorSchema,
} from './schema-services.js';

const sayFields = {
  kind: z.literal('say'),
  phrase: z.string({ error: 'required' }).min(1, 'required'),
  // RCML takes any voice name as a string (`alice`); it is passed through as written.
  voice: str,
  language: str,
  loop: int,
};

export const sayStepSchema = z.object({ ...stepBase, ...sayFields });

/**
 * `invalidMessage` / `speechInvalidMessage`: a say step the editor saves without `name`. One
 * that cannot be said is set aside by the loader with a warning (see `load.ts`).
 */
export const messageSaySchema = optional(z.object({ ...messageBase, ...sayFields }));

export const playStepSchema = z.object({
  ...stepBase,
  kind: z.literal('play'),
  playType: z.enum(['local', 'remote']).nullish(),
  local: z.object({ wavLocalFilename: str }).nullish(),
  remote: z.object({ wavUrl: str }).nullish(),
  loop: int,
});

const promptSchema = z.discriminatedUnion('kind', [sayStepSchema, playStepSchema]);

const collectTargetSchema = z.object({
  collectVariable: z.string().regex(/^[A-Za-z]+[A-Za-z0-9_]*$/, 'must match ^[A-Za-z]+[A-Za-z0-9_]*$'),
  next: str,
  scope: z.enum(['module', 'application']).default('module'),
});

const validationSchema = optional(z.object({ userPattern: str, regexPattern: str }));
const collectTarget = optional(collectTargetSchema);
const digitMappings = list(z.object({ digits: z.string(), next: str }));

export const gatherStepSchema = z.object({
  ...stepBase,
  kind: z.literal('gather'),
  method,
  steps: z.array(promptSchema).default([]),
  gatherType: z.enum(['menu', 'collectdigits']).default('menu'),
  timeout: int,
  finishOnKey: optional(z.string().regex(/^[0-9*#]?$/, 'must be empty or one of 0-9*#')),
  numDigits: int,
  inputType: optional(z.enum(['dtmf', 'speech', 'dtmf speech'])),
  hints: str,
  language: str,
  partialResultCallback: str,
  partialResultCallbackMethod: method,
  menu: optional(
    z.object({
      mappings: digitMappings,
      speechMappings: list(z.object({ key: z.string(), next: str })),
    }),
  ),
  collectdigits: collectTarget,
  collectspeech: collectTarget,
  validation: validationSchema,
  speechValidation: validationSchema,
  invalidMessage: messageSaySchema,
  speechInvalidMessage: messageSaySchema,
});

const videoFields = {
  enableVideo: bool,
  videoMode: str,
  videoResolution: str,
  videoLayout: str,
  videoOverlay: str,
};

const nounCommon = {
  destination: str,
  beforeConnectModule: str,
  statusCallback: str,
  statusCallbackModule: str,
  ...videoFields,
};

export const dialNounSchema = z.discriminatedUnion('dialType', [
  z.object({ ...nounCommon, dialType: z.literal('number'), sendDigits: str }),
  z.object({ ...nounCommon, dialType: z.literal('client') }),
  z.object({ ...nounCommon, dialType: z.literal('sipuri') }),
  z.object({
    destination: str,
    dialType: z.literal('conference'),
    muted: bool,
    beep: bool,
    startConferenceOnEnter: bool,
    endConferenceOnExit: bool,
    waitUrl: str,
    waitModule: str,
    waitMethod: method,
    maxParticipants: int,
    ...videoFields,
  }),
]);

export const dialStepSchema = z.object({
  ...stepBase,
  kind: z.literal('dial'),
  dialNouns: z.array(dialNounSchema).default([]),
  method,
  timeout: int,
  timeLimit: int,
  callerId: str,
  record: bool,
  nextModule: str,
});

export const hungupStepSchema = z.object({ ...stepBase, kind: z.literal('hungup') });

export const rejectStepSchema = z.object({
  ...stepBase,
  kind: z.literal('reject'),
  reason: optional(z.enum(['busy', 'rejected'])),
});

export const pauseStepSchema = z.object({
  ...stepBase,
  kind: z.literal('pause'),
  length: int.refine((v) => v === undefined || v >= 1, 'must be >= 1'),
});

export const redirectStepSchema = z
  .object({ ...stepBase, kind: z.literal('redirect'), url: str, next: str, method })
  .refine((s) => Boolean(s.url) || Boolean(s.next), {
    message: 'one of url or next is required',
    path: ['url'],
  });

export const recordStepSchema = z.object({
  ...stepBase,
  kind: z.literal('record'),
  next: str,
  method,
  timeout: int,
  finishOnKey: z
    .string()
    .regex(/^([0-9*#]+|-1)?$/, 'must be keys of 0-9*# or -1')
    .nullish()
    .transform((v) => v || undefined),
  maxLength: int.refine((v) => v === undefined || v >= 1, 'must be >= 1'),
  transcribe: bool,
  transcribeCallback: str,
  playBeep: bool,
  media: optional(z.enum(['audio_only', 'video_only', 'audio_video'])),
});

const messageFields = { text: str, to: str, from: str, next: str, method, statusCallback: str };
export const smsStepSchema = z.object({ ...stepBase, kind: z.literal('sms'), ...messageFields });
export const faxStepSchema = z.object({ ...stepBase, kind: z.literal('fax'), ...messageFields });
export const emailStepSchema = z.object({
  ...stepBase,
  kind: z.literal('email'),
  ...messageFields,
  subject: str,
  cc: str,
  bcc: str,
});

export const logStepSchema = z.object({ ...stepBase, kind: z.literal('log'), message: str });

export const ussdSayStepSchema = z.object({ ...stepBase, kind: z.literal('ussdSay'), text: str });
export const ussdLanguageStepSchema = z.object({
  ...stepBase,
  kind: z.literal('ussdLanguage'),
  language: str,
});
export const ussdCollectStepSchema = z.object({
  ...stepBase,
  kind: z.literal('ussdCollect'),
  gatherType: z.enum(['menu', 'collectdigits']).default('menu'),
  text: str,
  messages: list(z.object({ text: str })),
  menu: optional(z.object({ mappings: digitMappings })),
  collectdigits: collectTarget,
});

/** Schema of each step kind, by `kind`. */
export const stepSchemas = {
  say: sayStepSchema,
  play: playStepSchema,
  gather: gatherStepSchema,
  dial: dialStepSchema,
  hungup: hungupStepSchema,
  reject: rejectStepSchema,
  pause: pauseStepSchema,
  redirect: redirectStepSchema,
  record: recordStepSchema,
  sms: smsStepSchema,
  email: emailStepSchema,
  fax: faxStepSchema,
  externalService: externalServiceStepSchema,
  control: controlStepSchema,
  log: logStepSchema,
  ussdSay: ussdSayStepSchema,
  ussdLanguage: ussdLanguageStepSchema,
  ussdCollect: ussdCollectStepSchema,
} as const;

/** A step kind known to the designer. */
export type StepKind = keyof typeof stepSchemas;

export const stepSchema = z.union([
  sayStepSchema,
  playStepSchema,
  gatherStepSchema,
  dialStepSchema,
  hungupStepSchema,
  rejectStepSchema,
  pauseStepSchema,
  redirectStepSchema,
  recordStepSchema,
  smsStepSchema,
  emailStepSchema,
  faxStepSchema,
  externalServiceStepSchema,
  controlStepSchema,
  logStepSchema,
  ussdSayStepSchema,
  ussdLanguageStepSchema,
  ussdCollectStepSchema,
]);

export const nodeSchema = z.object({
  name: z.string().min(1),
  label: str,
  kind: z
    .enum(['voice', 'sms', 'ussd'])
    .nullish()
    .transform((v) => v ?? 'voice'),
  steps: z.array(stepSchema).default([]),
});

/** Current project format version. */
export const CURRENT_VERSION = '1.15';

export const projectSchema = z.object({
  header: z.object({
    projectKind: z.enum(['voice', 'sms', 'ussd']).default('voice'),
    startNodeName: z.string().min(1).default('start'),
    version: z.literal(CURRENT_VERSION),
    owner: str,
  }),
  nodes: z.array(nodeSchema),
  lastStepId: int,
  lastNodeId: int,
});

/** A validated project in the current format. */
export type Project = z.infer<typeof projectSchema>;
/** A module (the JSON calls it a node). */
export type ProjectNode = Project['nodes'][number];
/** Any step of a module. */
export type Step = z.infer<typeof stepSchema>;
export type SayStep = z.infer<typeof sayStepSchema>;
/** A say step as a gather's invalid-input message (no `name`). */
export type MessageSay = NonNullable<z.infer<typeof messageSaySchema>>;
export type PlayStep = z.infer<typeof playStepSchema>;
export type GatherStep = z.infer<typeof gatherStepSchema>;
export type DialStep = z.infer<typeof dialStepSchema>;
export type DialNounSpec = z.infer<typeof dialNounSchema>;
export type RecordStep = z.infer<typeof recordStepSchema>;
export type ExternalServiceStep = z.infer<typeof externalServiceStepSchema>;
export type ControlStep = z.infer<typeof controlStepSchema>;
export type UssdCollectStep = z.infer<typeof ussdCollectStepSchema>;
export type ValueExtractor = z.infer<typeof valueExtractorSchema>;
