/** What the queue matcher is asked and answers: arrivals, departures, after a bridge. */
import type { AfterBridgeDecision } from './rejoin.js';
import type { QueueInfo, QueueMember, QueueResult, QueueSide, QueueTicket } from './types.js';

/** A call arriving at a queue by name. */
export interface ArriveRequest {
  accountSid: string;
  /** Queue name (Enqueue text or Queue noun text). */
  queueName: string;
  callSid: string;
  side: QueueSide;
}

/** What became of an arrival. */
export type ArriveOutcome =
  /** Met `partner`, who was waiting at the head of the other side: bridge the two. */
  | { status: 'matched'; queue: QueueInfo; partner: QueueMember; partnerWaitMs: number }
  /** Nobody to meet: the call waits at `position` (its wait loop runs). */
  | { status: 'waiting'; queue: QueueInfo; ticket: QueueTicket; position: number }
  /** Its side is full and nobody could take it: Enqueue ends with `QueueResult=queue-full`. */
  | { status: 'queue-full'; queue: QueueInfo; size: number };

/** A waiting call removed without a match. */
export interface LeaveOutcome {
  member: QueueMember;
  /** Position it had. */
  position: number;
  waitMs: number;
  /** For the Enqueue action; undefined for a timeout (the Dial reports no-answer). */
  result: QueueResult | undefined;
}

/** A queued agent whose bridged customer hung up. */
export interface AfterBridgeRequest {
  queueSid: string;
  callSid: string;
  /** The agent's side; customers are the other one. Default `enqueued` (agents run Enqueue). */
  side?: QueueSide;
  /** The agent's `rejoin` attribute. */
  rejoin: boolean;
}

/** What the engine does with that agent. */
export type AfterBridgeOutcome =
  | { decision: Extract<AfterBridgeDecision, 'connect-next'>; partner: QueueMember; partnerWaitMs: number }
  | { decision: Extract<AfterBridgeDecision, 'rejoin'>; arrival: ArriveOutcome }
  | { decision: Extract<AfterBridgeDecision, 'drop'> };
