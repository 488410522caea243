/**
 * Plain types of the queue layer. Times are milliseconds on the caller's clock (virtual or
 * real); the layer never reads the wall clock itself.
 */

/**
 * The two sides that meet in a queue: calls that ran `Enqueue` (`enqueued`) and calls that
 * ran `Dial` with a `Queue` noun (`dialer`). Either side may be the one waiting.
 */
export type QueueSide = 'enqueued' | 'dialer';

/** Both sides, in a fixed order. */
export const QUEUE_SIDES: readonly QueueSide[] = ['enqueued', 'dialer'];

/** The side a newcomer on `side` is matched against. */
export function otherSide(side: QueueSide): QueueSide {
  return side === 'enqueued' ? 'dialer' : 'enqueued';
}

/** A queue as stored: created on first use, name unique per account. */
export interface QueueInfo {
  /** `QU` + 32 hex digits. */
  sid: string;
  accountSid: string;
  /** Case-sensitive, unique per account. */
  name: string;
  /** Most parties that may wait on one side at once (1..5000, default 100). */
  maxSize: number;
  dateCreated: number;
}

/** A call waiting on one side of a queue. */
export interface QueueMember {
  callSid: string;
  side: QueueSide;
  /** When it started waiting. */
  enqueuedAt: number;
  /**
   * The node running the call, in a store shared by several nodes (recorded by the store):
   * a match with it is bridged across nodes.
   */
  node?: string;
}

/** Handle to a waiting call: what `leave`, `position` and `waitParams` need. */
export interface QueueTicket {
  queueSid: string;
  side: QueueSide;
  callSid: string;
}

/** `QueueResult` sent to an Enqueue `action` URL. */
export type QueueResult =
  | 'bridged'
  | 'queue-full'
  | 'hangup'
  | 'leave'
  | 'redirected'
  | 'error'
  | 'system-error';

/** Why a waiting call left its queue without being matched. */
export type LeaveReason = 'leave' | 'hangup' | 'redirected' | 'timeout' | 'error' | 'system-error';

/** Totals of the waits of members served (matched) on one side. */
export interface ServedStats {
  count: number;
  totalWaitMs: number;
}
