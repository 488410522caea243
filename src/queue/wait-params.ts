import type { QueueInfo, ServedStats } from './types.js';

/** The queue parameters of requests to `waitUrl` and `joinUrl`. */
export interface QueueWaitParams {
  QueueSid: string;
  /** 1-based. */
  QueuePosition: string;
  /** Whole seconds this call has waited. */
  QueueTime: string;
  /** Average wait of the members served on this side, whole seconds (0 before the first). */
  AvgQueueTime: string;
  /** Members waiting on this side. */
  CurrentQueueSize: string;
  MaxQueueSize: string;
}

/** Inputs of {@link queueWaitParams}: a member's place and the queue's figures at `now`. */
export interface QueueWaitInput {
  queue: QueueInfo;
  position: number;
  enqueuedAt: number;
  now: number;
  size: number;
  served: ServedStats;
}

/** The wait-request parameters, as a pure function of the queue's state. */
export function queueWaitParams(input: QueueWaitInput): QueueWaitParams {
  const waited = Math.max(0, input.now - input.enqueuedAt);
  const avg = input.served.count > 0 ? input.served.totalWaitMs / input.served.count : 0;
  return {
    QueueSid: input.queue.sid,
    QueuePosition: String(input.position),
    QueueTime: String(Math.floor(waited / 1000)),
    AvgQueueTime: String(Math.round(avg / 1000)),
    CurrentQueueSize: String(input.size),
    MaxQueueSize: String(input.queue.maxSize),
  };
}
