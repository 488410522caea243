/**
 * The RCML document model. Attributes hold only what the document set: `undefined` means
 * "use the default" (see each verb's `defaults` in `src/rcml/verbs/`), so a document built
 * back to XML writes exactly the attributes it was given.
 */

/** 1-based line and column of an element or attribute in the source XML. */
export interface SourcePosition {
  line: number;
  column: number;
}

export type HttpMethod = 'GET' | 'POST';

/** Fields every verb and noun carries. `pos` is set by the parser, ignored by the builder. */
export interface NodeBase {
  pos?: SourcePosition;
}

export interface Say extends NodeBase {
  verb: 'Say';
  text: string;
  voice?: 'man' | 'woman';
  language?: string;
  /** 0 = until hang-up. */
  loop?: number;
}

export interface Play extends NodeBase {
  verb: 'Play';
  /** URL of the audio, possibly relative to the document URL. */
  url: string;
  loop?: number;
}

export interface Pause extends NodeBase {
  verb: 'Pause';
  length?: number;
}

export type GatherInput = 'dtmf' | 'speech' | 'dtmf speech';

/** Verbs a Gather may nest. */
export type GatherPrompt = Say | Play | Pause;

export interface Gather extends NodeBase {
  verb: 'Gather';
  action?: string;
  method?: HttpMethod;
  timeout?: number;
  /** One of `0-9*#`, or `''` to disable. */
  finishOnKey?: string;
  numDigits?: number;
  input?: GatherInput;
  language?: string;
  hints?: string;
  partialResultCallback?: string;
  partialResultCallbackMethod?: HttpMethod;
  actionOnEmptyResult?: boolean;
  prompts: GatherPrompt[];
}

export type RecordMedia = 'audio_only' | 'video_only' | 'audio_video';

export interface Record extends NodeBase {
  verb: 'Record';
  action?: string;
  method?: HttpMethod;
  timeout?: number;
  /** Keys that end the recording; `'-1'` disables. */
  finishOnKey?: string;
  maxLength?: number;
  playBeep?: boolean;
  transcribe?: boolean;
  transcribeCallback?: string;
  media?: RecordMedia;
}

export type CallProgressEvent = 'initiated' | 'ringing' | 'answered' | 'completed';

/** Attributes shared by the Number, Client and Sip nouns. */
export interface LegNounBase extends NodeBase {
  /** Screening document run on the callee before bridging. */
  url?: string;
  method?: HttpMethod;
  statusCallback?: string;
  statusCallbackMethod?: HttpMethod;
  statusCallbackEvent?: CallProgressEvent[];
}

export interface NumberNoun extends LegNounBase {
  noun: 'Number';
  number: string;
  sendDigits?: string;
}

/**
 * Video of a Client, Sip or Conference noun (`<Video enable mode resolution layout overlay/>`),
 * as the Visual Designer writes it when the application's video option is on. A noun with
 * video names its destination in a `name` attribute. The engine runs calls as audio and keeps
 * it for inspection only. `mode` (mcu, sfu) and `layout` (linear, tile) are Conference's.
 */
export interface NounVideo extends NodeBase {
  enable?: boolean;
  mode?: string;
  resolution?: string;
  layout?: string;
  overlay?: string;
}

export interface ClientNoun extends LegNounBase {
  noun: 'Client';
  name: string;
  video?: NounVideo;
}

export interface SipNoun extends LegNounBase {
  noun: 'Sip';
  /** Full SIP URI as written, including `?X-Header=value` parameters. */
  uri: string;
  username?: string;
  password?: string;
  video?: NounVideo;
}

export interface ConferenceNoun extends NodeBase {
  noun: 'Conference';
  name: string;
  muted?: boolean;
  beep?: boolean;
  startConferenceOnEnter?: boolean;
  endConferenceOnExit?: boolean;
  waitUrl?: string;
  waitMethod?: HttpMethod;
  maxParticipants?: number;
  video?: NounVideo;
}

export interface QueueNoun extends NodeBase {
  noun: 'Queue';
  name: string;
  url?: string;
  method?: HttpMethod;
  waitUrl?: string;
  waitUrlMethod?: HttpMethod;
  joinUrl?: string;
  joinUrlMethod?: HttpMethod;
  rejoin?: boolean;
}

export type DialNoun = NumberNoun | ClientNoun | SipNoun | ConferenceNoun | QueueNoun;

export interface Dial extends NodeBase {
  verb: 'Dial';
  action?: string;
  method?: HttpMethod;
  timeout?: number;
  timeLimit?: number;
  callerId?: string;
  record?: boolean;
  /** The caller pressing `*` ends the bridge (the callee is hung up, the caller goes on). */
  hangupOnStar?: boolean;
  /**
   * Targets. A text target (`<Dial>+1555</Dial>`, `client:alice`, `sip:...`) is parsed into
   * the matching noun with `fromText: true` so the builder writes it back as text.
   */
  nouns: DialNoun[];
  fromText?: boolean;
}

export interface Enqueue extends NodeBase {
  verb: 'Enqueue';
  /** Queue name. */
  name: string;
  action?: string;
  method?: HttpMethod;
  waitUrl?: string;
  waitUrlMethod?: HttpMethod;
  joinUrl?: string;
  joinUrlMethod?: HttpMethod;
  rejoin?: boolean;
}

export interface Leave extends NodeBase {
  verb: 'Leave';
}

export interface Redirect extends NodeBase {
  verb: 'Redirect';
  /** Empty: the verb does nothing and the next verb runs. */
  url: string;
  method?: HttpMethod;
}

export interface Hold extends NodeBase {
  verb: 'Hold';
}

export interface Resume extends NodeBase {
  verb: 'Resume';
}

export interface Hangup extends NodeBase {
  verb: 'Hangup';
}

export interface Reject extends NodeBase {
  verb: 'Reject';
  reason?: 'rejected' | 'busy';
}

/** Attributes shared by the message verbs (Sms, Email, Fax). */
interface MessageBase extends NodeBase {
  text: string;
  to?: string;
  from?: string;
  action?: string;
  method?: HttpMethod;
  statusCallback?: string;
}

export interface Sms extends MessageBase {
  verb: 'Sms';
}

export interface Email extends MessageBase {
  verb: 'Email';
  subject?: string;
  cc?: string;
  bcc?: string;
}

export interface Fax extends MessageBase {
  verb: 'Fax';
}

/** A verb the parser does not know: kept for inspection, skipped at run time. */
export interface UnknownVerb extends NodeBase {
  verb: 'Unknown';
  name: string;
  attributes: { [name: string]: string };
  text: string;
  /** Child elements (written after the text), e.g. the `<UssdMessage>`s of a `<UssdCollect>`. */
  children?: UnknownVerb[];
}

export type Verb =
  | Say
  | Play
  | Pause
  | Gather
  | Record
  | Dial
  | Enqueue
  | Leave
  | Redirect
  | Hold
  | Resume
  | Hangup
  | Reject
  | Sms
  | Email
  | Fax
  | UnknownVerb;

export type VerbName = Verb['verb'];

export interface RcmlDocument {
  verbs: Verb[];
}

export type Severity = 'error' | 'warning';

/**
 * A problem found in a document. `code` is the platform's numeric code where one exists
 * (13xxx attribute warnings, 11100 bad URI, ...) or a string code of this library
 * (`xml.malformed`, `rcml.root`, `rcml.nesting`, `rcml.required`, `rcml.unknown-verb`,
 * `rcml.unknown-attribute`, `rcml.too-large`, `rcml.too-many-attributes`, `rcml.dtd`).
 */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  /** Element (and attribute, as `Verb@attr`) the diagnostic concerns, when known. */
  path?: string;
}

export type ParseResult =
  | { ok: true; document: RcmlDocument; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

export interface ParseOptions {
  /** Largest accepted document in bytes (UTF-8). Default 1 MiB. */
  maxBytes?: number;
}
