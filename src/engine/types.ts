import type { HttpMethod } from '../rcml/model.js';
import type { EngineQueueEvent } from './queues/events.js';
import type { CallDirection, CallEndedBy, CallRecord, CallStatus } from './records.js';
import type { VerbDetails } from './verb-details.js';

/** Most characters of an answer's text a `response` event carries (a web console shows them). */
export const RESPONSE_BODY_CAP = 4096;

/** What kind of request the engine made: the first document, an action, a status callback... */
export type RequestKind =
  | 'rcml'
  | 'fallback'
  | 'redirect'
  | 'action'
  | 'media'
  | 'status-callback'
  | 'sms-status-callback'
  /** Email and Fax `statusCallback` requests. */
  | 'message-status-callback'
  /** Gather `partialResultCallback` requests (`UnstableSpeechResult`). */
  | 'partial-result'
  /** The first document of a live modification (`Url`). */
  | 'modify'
  /** Conference `waitUrl` documents. */
  | 'conference-wait'
  /** Enqueue / Queue `waitUrl` documents. */
  | 'queue-wait'
  /** Enqueue / Queue `joinUrl` and Queue `url` documents. */
  | 'queue-join';

/** Request handed to an in-process handler (the shape a Visual Designer render function takes). */
export interface HandlerRequest {
  /** Resolved URL as the document named it; engine parameters are in `params`, not the query. */
  url: string;
  method: HttpMethod;
  params: Record<string, string>;
}

/** Response of an in-process handler. Media handlers may return bytes. */
export interface HandlerResponse {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

/** In-process stand-in for a web server, registered by URL or URL prefix. */
export type RcmlHandler = (req: HandlerRequest) => Promise<HandlerResponse> | HandlerResponse;

/** Input a party gives a live call. */
export type PartyInput = { kind: 'dtmf'; keys: string } | { kind: 'speech'; text: string };

/**
 * How a simulated phone, client or SIP endpoint behaves. Times are seconds; `digits`,
 * `speech` and `hangupAfter` count from the moment the call is answered.
 */
export interface PartyBehaviour {
  /** What happens when the party is called (outbound legs). Default `answer`. */
  outcome?: 'answer' | 'busy' | 'no-answer' | 'fail';
  /** Ringing time before the outcome. Default 0. */
  answerAfter?: number;
  /** Keys pressed at given times. */
  digits?: ReadonlyArray<{ at: number; keys: string }>;
  /** Phrases spoken at given times (delivered to speech Gathers, heard by Record). */
  speech?: ReadonlyArray<{ at: number; text: string }>;
  /** The party hangs up this long after the answer. */
  hangupAfter?: number;
}

/**
 * Behaviour of parties without one of their own: one for all, or a function of the call (its
 * record: sid, direction, from, to...) and of the party's address.
 */
export type DefaultParty = PartyBehaviour | ((call: Readonly<CallRecord>, address: string) => PartyBehaviour);

/** Voice configuration of a phone number the engine routes inbound calls to. */
export interface NumberConfig {
  voiceUrl: string;
  voiceMethod?: HttpMethod;
  voiceFallbackUrl?: string;
  voiceFallbackMethod?: HttpMethod;
  statusCallback?: string;
  statusCallbackMethod?: HttpMethod;
  /** Events sent to `statusCallback` (ringing, answered, completed). Default `completed` only. */
  statusCallbackEvent?: ReadonlyArray<'initiated' | 'ringing' | 'answered' | 'completed'>;
  /** Sid reported as the call's `phoneNumberSid` (default: `PN` + a digest of the number, stable). */
  sid?: string;
  /** Account owning the number: its inbound calls belong to it, whoever places them. */
  accountSid?: string;
}

/** Parameters of an outbound call: the platform's POST Calls form fields. */
export interface CreateCallParams {
  From: string;
  /** Number, `client:<name>` or `sip:<user>@<host>` (URI parameters become custom headers). */
  To: string;
  Url: string;
  Method?: HttpMethod;
  FallbackUrl?: string;
  FallbackMethod?: HttpMethod;
  StatusCallback?: string;
  StatusCallbackMethod?: HttpMethod;
  /** Comma-separated list or array of initiated, ringing, answered, completed. */
  StatusCallbackEvent?: string | ReadonlyArray<string>;
  /** Ring seconds before no-answer. Default 60. */
  Timeout?: number;
  /** Extra custom SIP headers (`X-<name>`). */
  headers?: Record<string, string>;
  /** Account owning the call (and its legs and records). Default the engine's account. */
  accountSid?: string;
}

/** Options of an inbound call. */
export interface IncomingCallOptions {
  callerName?: string;
  forwardedFrom?: string;
  /**
   * SIP headers of the invitation (`X-<name>`, `Diversion`, `History-Info`...), sent as
   * `SipHeader_<name>` parameters; a list of values (top-most first) repeats the parameter.
   */
  headers?: Readonly<Record<string, string | readonly string[]>>;
  /** Account owning the call (and its legs and records). Default the engine's account. */
  accountSid?: string;
}

/** Everything the engine reports through `onEvent`, in the order it happened. */
export type EngineEvent =
  | {
      type: 'call-status';
      at: number;
      callSid: string;
      status: CallStatus;
      direction: CallDirection;
      /** Who ended the call, on the final status. */
      endedBy?: CallEndedBy;
    }
  | {
      type: 'verb';
      at: number;
      callSid: string;
      verb: string;
      documentUrl: string;
      /** The verb this one is nested in (Gather for its Say, Play and Pause prompts). */
      parent?: string;
      /** What it offered the caller: Say text, Play URL, Dial targets, Gather attributes... */
      details?: VerbDetails;
    }
  | {
      type: 'request';
      /** Numbers requests of one engine from 1; the matching `response` carries the same id. */
      id: number;
      at: number;
      callSid?: string;
      kind: RequestKind;
      url: string;
      method: HttpMethod;
      params: Record<string, string>;
    }
  | {
      type: 'response';
      id: number;
      at: number;
      callSid?: string;
      kind: RequestKind;
      url: string;
      /** HTTP status, 0 for an I/O error. */
      status: number;
      error?: string;
      /** The answer's content type, when it had a body. */
      contentType?: string;
      /**
       * The answer's text (the RCML document...), its first {@link RESPONSE_BODY_CAP}
       * characters; none for binary media or an empty answer.
       */
      body?: string;
      /** Whether `body` was cut at the cap. */
      bodyTruncated?: boolean;
    }
  /** Party input; `heard` when a verb was listening (it may still go unused: `input-discarded`). */
  | { type: 'input'; at: number; callSid: string; input: PartyInput; heard: boolean }
  /** Heard input a verb did not use: keys past `numDigits`, a kind it does not take, left over. */
  | { type: 'input-discarded'; at: number; callSid: string; input: PartyInput; reason: string }
  /** Something happened in a call queue (see docs/queue.md and docs/engine.md). */
  | { type: 'queue'; at: number; callSid?: string; event: EngineQueueEvent }
  | EngineConnectEvent;

/** What happened to a conference: a call joined or left, the room started or ended. */
export type ConferenceAction = 'join' | 'leave' | 'start' | 'end' | 'mute' | 'unmute' | 'beep';

/** Events about joined calls: bridges, conferences, media changes and live modifications. */
export type EngineConnectEvent =
  | { type: 'leg'; at: number; callSid: string; parentCallSid: string; to: string }
  | {
      type: 'bridge';
      at: number;
      callSid: string;
      peerSid: string;
      action: 'start' | 'end';
      /** Why a bridge ended: `a-hangup`, `b-hangup`, `time-limit`, `aborted`, `modified`. */
      reason?: string;
    }
  | {
      type: 'conference';
      at: number;
      callSid?: string;
      conferenceSid: string;
      name: string;
      action: ConferenceAction;
      /** For `beep`: the entry or exit of `callSid` that sounded it, and the tone's length. */
      tone?: { on: 'join' | 'leave'; seconds: number };
    }
  | { type: 'media'; at: number; callSid: string; muted: boolean; held: boolean }
  | { type: 'modify'; at: number; callSid: string; params: Record<string, string> };

/** Listener of engine events (inspection hook). */
export type EngineEventListener = (event: EngineEvent) => void;
