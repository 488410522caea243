/**
 * The port through which the REST adapters place, modify and drive calls. The call engine
 * implements it; the adapters only validate HTTP input, call it and render what it returns.
 * Records the engine produces reach the store through its record sink, not through this port.
 */
import type { ConferenceInfo } from '../../engine/conferences.js';
import type { CallRecord } from '../../engine/records.js';
import type { PartyBehaviour } from '../../engine/types.js';

export type { ConferenceInfo, PartyBehaviour };

import type { CallProgressEvent, HttpMethod } from '../../rcml/model.js';

/** Validated parameters of `POST .../Calls`. */
export interface CreateCallRequest {
  from: string;
  /** Phone number, `sip:user@host` (without URI headers) or `client:name`. */
  to: string;
  url: string;
  method: HttpMethod;
  fallbackUrl?: string;
  fallbackMethod: HttpMethod;
  statusCallback?: string;
  statusCallbackMethod: HttpMethod;
  /** Events to send; `['completed']` when a callback is given without events. */
  statusCallbackEvents: CallProgressEvent[];
  /** Seconds to ring before no-answer. */
  timeout: number;
  /** Custom SIP headers: the `To` URI's headers and `X-` form fields. */
  sipHeaders: Record<string, string>;
}

export type ChildCallMode = 'Hangup' | 'Move' | 'StayConnected';

/** Validated parameters of `POST .../Calls/{CallSid}`. At least one of url, status, mute is set. */
export interface ModifyCallRequest {
  url?: string;
  method: HttpMethod;
  status?: 'canceled' | 'completed';
  mute?: boolean;
  fallbackUrl?: string;
  fallbackMethod: HttpMethod;
  statusCallback?: string;
  statusCallbackMethod: HttpMethod;
  /** `MoveConnectedCallLeg=true` reads as `Move` when no mode is given. */
  childCallMode: ChildCallMode;
}

/** Simulation control (the `/sim` routes). */
export interface SimControl {
  /**
   * Places an inbound call from `from` to the number `to`, with the SIP headers of its
   * invitation (a repeated header's values top-most first). A number another account owns is
   * refused with `simulation-off` unless the server shares simulation.
   */
  incomingCall(
    accountSid: string,
    params: { from: string; to: string; headers?: Record<string, string | readonly string[]> },
  ): Promise<CallRecord>;
  /**
   * Sets the behaviour of a party address (phone number, `client:` or `sip:`). Parties are shared
   * by every account: refused with `simulation-off` unless the server shares simulation.
   */
  setParty(accountSid: string, address: string, behaviour: PartyBehaviour): Promise<void>;
  /** The far end of a live call presses keys now. */
  sendDigits(accountSid: string, callSid: string, digits: string): Promise<void>;
  /** The far end of a live call says a phrase now. */
  sendSpeech(accountSid: string, callSid: string, text: string): Promise<void>;
  /**
   * Advances the virtual clock, every account's; resolves with the new time (ms since the
   * epoch). Refused with `simulation-off` unless the server shares simulation.
   */
  advance(ms: number): Promise<number>;
  /**
   * Routes inbound calls to `number` to a voice URL, and makes the number the account's: a
   * number another account owns (provisioned through Call Queuing, `--number`, or set here
   * first) is refused with `number-unavailable`.
   */
  setNumber(
    accountSid: string,
    number: string,
    config: { voiceUrl: string; voiceMethod?: 'GET' | 'POST' },
  ): Promise<void>;
}

/** Call operations the REST API needs from the engine. */
export interface CallControl {
  createCall(accountSid: string, params: CreateCallRequest): Promise<CallRecord>;
  modifyCall(accountSid: string, callSid: string, params: ModifyCallRequest): Promise<CallRecord>;
  /** Mutes or unmutes a conference participant; resolves with the participant's call. */
  muteParticipant(
    accountSid: string,
    conferenceSid: string,
    callSid: string,
    mute: boolean,
  ): Promise<CallRecord>;
  /**
   * The account's conference rooms (live and ended, those the engine still holds), in creation
   * order, each with its current participants. Absent: the Conferences resources answer 501.
   */
  listConferences?(accountSid: string): Promise<ConferenceInfo[]>;
  /** Present when the engine runs simulated parties. */
  readonly sim?: SimControl;
}

/**
 * Why a call operation was refused; the adapters map each code to an HTTP status: `not-found`
 * 404, `not-live` 409, `invalid` 400, `unsupported` 501, `clock-not-virtual` 409 (time cannot be
 * advanced on a real clock), `unavailable` 503 (the engine is shutting down), `too-many-live-calls` 429
 * (the account holds as many live calls as the server allows), `number-unavailable` 409 (another
 * account owns the number), `simulation-off` 403 (the server keeps the simulation controls that
 * every account shares switched off).
 */
export type CallControlErrorCode =
  | 'not-found'
  | 'not-live'
  | 'invalid'
  | 'unsupported'
  | 'clock-not-virtual'
  | 'unavailable'
  | 'too-many-live-calls'
  | 'number-unavailable'
  | 'simulation-off';

/** An error a {@link CallControl} throws for a request it refuses. */
export class CallControlError extends Error {
  constructor(
    readonly code: CallControlErrorCode,
    message: string,
    /** The request parameter at fault, when there is one. */
    readonly parameter?: string,
  ) {
    super(message);
    this.name = 'CallControlError';
  }
}
