/**
 * Records the engine produces while calls run. Stores and REST adapters persist and render
 * them; the engine never formats them for HTTP. Times are milliseconds since the Unix epoch
 * on the engine's clock (virtual or real).
 */

export type CallStatus =
  | 'queued'
  | 'ringing'
  | 'in-progress'
  | 'completed'
  | 'busy'
  | 'failed'
  | 'no-answer'
  | 'canceled';

export const TERMINAL_STATUSES: ReadonlySet<CallStatus> = new Set([
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
]);

export type CallDirection = 'inbound' | 'outbound-api' | 'outbound-dial';

export const API_VERSION = '2012-04-24';

export interface CallRecord {
  sid: string;
  accountSid: string;
  parentCallSid?: string;
  direction: CallDirection;
  from: string;
  to: string;
  status: CallStatus;
  /** Incoming number that received an inbound call. */
  phoneNumberSid?: string;
  callerName?: string;
  forwardedFrom?: string;
  answeredBy?: 'human' | 'machine';
  instanceId: string;
  apiVersion: string;
  dateCreated: number;
  dateUpdated: number;
  /** Set when the call is answered (ring time is not counted). */
  startTime?: number;
  endTime?: number;
  /** `ceil((endTime - startTime) / 1000)`, 0 when never answered. Set when the call ends. */
  duration?: number;
  /** Who ended the call (an extension of the platform's record). Set when the call ends. */
  endedBy?: CallEndedBy;
  /**
   * Where the call reports its progress (`StatusCallback`), kept so that a node of a cluster
   * that closes the call of a dead node sends its final callback. Not part of the API's record.
   */
  statusCallback?: StatusCallbackRecord;
}

/** A call's status callback as its record keeps it. */
export interface StatusCallbackRecord {
  url: string;
  method: 'GET' | 'POST';
  events: Array<'initiated' | 'ringing' | 'answered' | 'completed'>;
}

/**
 * Who ended a call: `caller` the party on the line (hang-up, or busy / fail / not answering as
 * the called party), `application` its documents (end of document, Hangup, Reject, a Dial or
 * queue flow releasing a leg), `api` a live modification, `timeout` the ring timeout, `engine`
 * the engine itself (unknown number, `close()`).
 */
export type CallEndedBy = 'caller' | 'application' | 'api' | 'timeout' | 'engine';

export interface RecordingRecord {
  sid: string;
  accountSid: string;
  callSid: string;
  /** Seconds, decimal. */
  duration: number;
  apiVersion: string;
  dateCreated: number;
  dateUpdated: number;
}

interface GatherRecordBase {
  sid: string;
  accountSid: string;
  orgSid?: string;
  callSid: string;
  dateCreated: number;
  /** Configured wait for the first input, seconds. */
  preTimeout: number;
  /** Configured wait for the next input, seconds. */
  postTimeout: number;
  actionOnEmptyResult: boolean;
  status: 'completed' | 'failed';
  /** Why it failed; empty when not failed. */
  reason: string;
  apiVersion: string;
}

export interface DtmfGatherRecord extends GatherRecordBase {
  kind: 'dtmf';
  digitsCount: number;
  digits: string;
}

export interface SpeechGatherRecord extends GatherRecordBase {
  kind: 'speech';
  provider: string;
  language: string;
  hints: string;
  /** Seconds taken to recognise the speech. */
  duration: number;
  speechResult: string;
}

export type GatherRecord = DtmfGatherRecord | SpeechGatherRecord;

export interface NotificationRecord {
  sid: string;
  accountSid: string;
  callSid?: string;
  /** Platform code (11205, 21402, 13xxx...) or a library code. */
  code: string;
  /** 0 = error, 1 = warning (the platform's `log` field). */
  log: 0 | 1;
  message: string;
  url?: string;
  dateCreated: number;
}

export interface MessageRecord {
  sid: string;
  accountSid: string;
  callSid: string;
  kind: 'sms' | 'email' | 'fax';
  from: string;
  to: string;
  body: string;
  status: 'sent' | 'failed';
  dateCreated: number;
}

/**
 * A session detail record: a re-invitation of a call's media with a new offer, written by Hold
 * (`hold`) and Resume (`resume`). Mute changes media silently and writes none.
 */
export interface SessionDetailRecord {
  sid: string;
  accountSid: string;
  callSid: string;
  direction: 'hold' | 'resume';
  /** The media offer of the re-invitation (`sendonly` on hold, `sendrecv` on resume). */
  offer: 'sendonly' | 'sendrecv';
  dateCreated: number;
}

/** Status of a conference room: waiting for a starter, running, or over. */
export type ConferenceStatus = 'init' | 'in-progress' | 'completed';

/** A call in a conference room, as the room's record holds it. */
export interface ParticipantRecord {
  callSid: string;
  /** Muted in the conference (`muted` attribute or a participant mute). */
  muted: boolean;
  /** On hold (Hold verb). */
  hold: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  /** When it joined. */
  joinedAt: number;
}

/**
 * A conference room (`<Dial><Conference>`) with its current participants in order of arrival;
 * an ended room has none. Reported whole on every change (a room has few participants).
 */
export interface ConferenceRecord {
  sid: string;
  accountSid: string;
  friendlyName: string;
  status: ConferenceStatus;
  dateCreated: number;
  dateUpdated: number;
  participants: ParticipantRecord[];
}

/**
 * Where the engine reports records as they are created or change. A store-backed sink
 * persists them; the simulator's sink builds its trace. Every method is optional.
 */
export interface RecordSink {
  /** A call was created or any of its fields changed. */
  call?(call: Readonly<CallRecord>): void;
  /** A recording finished; `wav` holds the complete RIFF/WAVE file. */
  recording?(recording: Readonly<RecordingRecord>, wav: Uint8Array): void;
  gather?(gather: Readonly<GatherRecord>): void;
  notification?(notification: Readonly<NotificationRecord>): void;
  message?(message: Readonly<MessageRecord>): void;
  /** A Hold or Resume re-invited a call's media. */
  sessionDetail?(record: Readonly<SessionDetailRecord>): void;
  /** A conference room was opened or changed (status, participants, mute, hold). */
  conference?(room: Readonly<ConferenceRecord>): void;
}
