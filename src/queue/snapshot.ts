import type { QueueInfo, QueueMember, QueueSide, ServedStats } from './types.js';

/** A waiting member as inspection shows it. */
export interface QueueMemberView {
  callSid: string;
  /** 1-based. */
  position: number;
  enqueuedAt: number;
  waitMs: number;
}

/** One side of a queue at an instant. */
export interface QueueSideView {
  side: QueueSide;
  size: number;
  /** Head first. */
  members: QueueMemberView[];
  /** Members served (matched) from this side so far. */
  servedCount: number;
  /** Average wait of the members served so far, ms (0 before the first). */
  averageWaitMs: number;
}

/** A queue's state at `at`: both sides in order, averages and limits. */
export interface QueueSnapshot {
  queue: QueueInfo;
  at: number;
  maxSize: number;
  enqueued: QueueSideView;
  dialer: QueueSideView;
}

/** Builds a side's view from its members (head first) and served totals. */
export function viewSide(
  side: QueueSide,
  members: readonly QueueMember[],
  served: ServedStats,
  now: number,
): QueueSideView {
  return {
    side,
    size: members.length,
    members: members.map((m, i) => ({
      callSid: m.callSid,
      position: i + 1,
      enqueuedAt: m.enqueuedAt,
      waitMs: Math.max(0, now - m.enqueuedAt),
    })),
    servedCount: served.count,
    averageWaitMs: served.count > 0 ? served.totalWaitMs / served.count : 0,
  };
}
