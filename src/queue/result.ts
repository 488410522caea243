import type { LeaveReason, QueueResult } from './types.js';

/**
 * The Enqueue `QueueResult` for a call that left its queue unmatched. A timeout has none: only
 * dialers time out, and their Dial reports `DialCallStatus=no-answer` instead.
 */
export function queueResultFor(reason: LeaveReason): QueueResult | undefined {
  return reason === 'timeout' ? undefined : reason;
}
