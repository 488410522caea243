import type { LeaveReason, QueueSide } from './types.js';

/** Fields every queue event carries. `at` is the caller's clock in ms. */
export interface QueueEventBase {
  at: number;
  queueSid: string;
  accountSid: string;
  queueName: string;
}

/** A call started waiting at the tail of its side. */
export interface QueueEnqueueEvent extends QueueEventBase {
  type: 'enqueue';
  callSid: string;
  side: QueueSide;
  position: number;
  size: number;
}

/**
 * A member left `side` from position `vacated`: everyone who was behind it moved up by one.
 * One event per departure (not one per member behind it) keeps departures O(log n).
 */
export interface QueuePositionChangeEvent extends QueueEventBase {
  type: 'position-change';
  side: QueueSide;
  vacated: number;
  /** Members left on the side. */
  size: number;
}

/** Two calls met: `waiting` was dequeued from the head of its side for `arriving`. */
export interface QueueMatchEvent extends QueueEventBase {
  type: 'match';
  waiting: { callSid: string; side: QueueSide; waitMs: number };
  arriving: { callSid: string; side: QueueSide };
}

/** A waiting call left unmatched (Leave verb, hang-up, redirect, error). */
export interface QueueLeaveEvent extends QueueEventBase {
  type: 'leave';
  callSid: string;
  side: QueueSide;
  reason: Exclude<LeaveReason, 'timeout'>;
  position: number;
  waitMs: number;
}

/** A waiting call's wait limit (the Dial `timeout` of a dialer) ran out. */
export interface QueueTimeoutEvent extends QueueEventBase {
  type: 'timeout';
  callSid: string;
  side: QueueSide;
  position: number;
  waitMs: number;
}

/** A call could not wait: its side already held `maxSize` members and nobody could take it. */
export interface QueueFullEvent extends QueueEventBase {
  type: 'queue-full';
  callSid: string;
  side: QueueSide;
  size: number;
  maxSize: number;
}

/** A queued agent whose customer hung up waits again (rejoin=true, no customer waiting). */
export interface QueueRejoinEvent extends QueueEventBase {
  type: 'rejoin';
  callSid: string;
  side: QueueSide;
}

/** A queued agent whose customer hung up is dropped (rejoin=false, no customer waiting). */
export interface QueueDropEvent extends QueueEventBase {
  type: 'drop';
  callSid: string;
  side: QueueSide;
}

/** Everything a queue reports, for traces and inspection hooks. */
export type QueueEvent =
  | QueueEnqueueEvent
  | QueuePositionChangeEvent
  | QueueMatchEvent
  | QueueLeaveEvent
  | QueueTimeoutEvent
  | QueueFullEvent
  | QueueRejoinEvent
  | QueueDropEvent;

/** Receives queue events synchronously, in the order they happen. */
export type QueueListener = (event: QueueEvent) => void;
