/**
 * Records of the Call Queuing product: provisioned numbers and what happened to their calls.
 * Times are milliseconds since the epoch.
 */

/** A number provisioned as a call-queue entry point (`POST /callqueue/provisioning`). */
export interface CallQueueNumberRecord {
  /** `PN` + 32 hex digits. */
  sid: string;
  accountSid: string;
  /** E.164 form: `+` and 8 to 15 digits, country code first. */
  phoneNumber: string;
  /** The customer's application, without the internal parameters of `voiceUrl`. */
  applicationUrl: string;
  applicationUrlMethod: 'GET' | 'POST';
  /** Registered as a SIP number (bring your own carrier) rather than bought. */
  byoc: boolean;
  /** 1 when provisioned, one more at each override. */
  revision: number;
  dateCreated: number;
  dateUpdated: number;
}

/** What a recorded event reports: a call status callback, or a step of the call in a queue. */
export type CallQueueEventType =
  /** A status callback reached `POST /callqueue/callback`. */
  | 'status'
  /** The call started waiting on a side of a queue. */
  | 'enqueue'
  /** The call met a partner (a customer and an agent are connected). */
  | 'match'
  /** The call left a queue unmatched (hang-up, Leave, redirect, error). */
  | 'leave'
  /** The call's Dial timeout ended its wait. */
  | 'timeout'
  /** The call could not wait: its side was full. */
  | 'queue-full'
  /** An agent waits again after its customer hung up. */
  | 'rejoin'
  /** An agent's call was dropped after its customer hung up. */
  | 'drop';

/** One event recorded against a number and a call. Fields beyond the first six depend on `type`. */
export interface CallQueueEvent {
  /** Order of recording within the store, from 1. */
  id: number;
  accountSid: string;
  numberSid: string;
  callSid: string;
  type: CallQueueEventType;
  /** When it happened (the callback's `Timestamp`, or the queue's clock). */
  at: number;
  /** `status`: the `CallStatus` posted. */
  status?: string;
  /** `status`: the callback's `SequenceNumber`. */
  sequenceNumber?: number;
  /** `status`: `CallDuration` seconds (completed events). */
  duration?: number;
  queueSid?: string;
  queueName?: string;
  /** `dialer` (customers, Dial+Queue) or `enqueued` (agents, Enqueue). */
  side?: 'dialer' | 'enqueued';
  /** `match`: the call met. */
  partnerCallSid?: string;
  /** `leave`: why. */
  reason?: string;
  /** `enqueue`, `leave`, `timeout`: position on its side. */
  position?: number;
  /** `match`, `leave`, `timeout`: how long it had waited, ms (0 for the arriving side of a match). */
  waitMs?: number;
}

/** An event as handed to the store, before it is numbered. */
export type NewCallQueueEvent = Omit<CallQueueEvent, 'id'>;
