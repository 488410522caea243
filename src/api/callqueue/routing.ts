/**
 * The port through which the Call Queuing routes reach the call engine: route a provisioned
 * number's inbound calls, read and tune its queues, follow what happens in them.
 */
import type { NumberConfig } from '../../engine/types.js';
import type { QueueInfo, QueueListener, QueueSnapshot } from '../../queue/index.js';

/** What the queue state needs to know about a live call. */
export interface LiveCallInfo {
  accountSid: string;
  from: string;
  to: string;
  /** Sid of the number it called (a provisioned number's `PN` sid). */
  phoneNumberSid?: string;
}

export interface CallQueueRouting {
  /** Routes inbound calls to `phoneNumber` (replacing any earlier routing of it). */
  route(phoneNumber: string, config: NumberConfig): void;
  /** Stops routing `phoneNumber`. */
  unroute(phoneNumber: string): void;
  listQueues(accountSid: string): Promise<QueueInfo[]>;
  /** Undefined for an unknown sid. */
  inspectQueue(queueSid: string): Promise<QueueSnapshot | undefined>;
  /** 1..5000; throws `QueueError` otherwise. */
  setQueueMaxSize(queueSid: string, maxSize: number): Promise<QueueInfo>;
  /** Follows the matcher's events; returns the unsubscribe. */
  subscribe(listener: QueueListener): () => void;
  /** A call the engine is running, or undefined once it ended. */
  liveCall(callSid: string): LiveCallInfo | undefined;
  /**
   * A call of the account as the store has it (one another node of a cluster runs, whose
   * member waits in a shared queue); undefined when unknown. Optional: without a store, members
   * of calls this engine does not run show no numbers.
   */
  storedCall?(accountSid: string, callSid: string): Promise<LiveCallInfo | undefined>;
  /** The engine's clock, ms. */
  now(): number;
}
