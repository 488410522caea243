import type { QueueEvent, QueueEventBase, QueueSide } from '../../queue/index.js';

/** A waiting call starts another round of its `waitUrl` document. */
export interface QueueWaitLoopEvent extends QueueEventBase {
  type: 'wait-loop';
  callSid: string;
  side: QueueSide;
  /** 1 for the first round. */
  iteration: number;
  /** Document of this round; undefined when the call waits in silence (no or failed waitUrl). */
  url: string | undefined;
}

/** A matched call runs a document (`joinUrl`, or the Queue noun `url`) before the bridge. */
export interface QueueJoinEvent extends QueueEventBase {
  type: 'join';
  callSid: string;
  partnerCallSid: string;
  url: string;
}

/** Two matched calls are connected: `callSid` ran Enqueue, `partnerCallSid` dialed the queue. */
export interface QueueBridgeEvent extends QueueEventBase {
  type: 'bridge';
  callSid: string;
  partnerCallSid: string;
}

/** A bridge (or a match that never got bridged) ended. */
export interface QueueBridgeEndEvent extends QueueEventBase {
  type: 'bridge-end';
  callSid: string;
  partnerCallSid: string;
  /** Which side ended it, or `time-limit` (the Dial `timeLimit`). */
  endedBy: QueueSide | 'time-limit';
  /** False when a side was gone before the two were connected. */
  bridged: boolean;
  /** Whole seconds connected (0 when not bridged). */
  duration: number;
}

/** Everything the engine reports about its queues: the matcher's events plus the calls' own. */
export type EngineQueueEvent =
  | QueueEvent
  | QueueWaitLoopEvent
  | QueueJoinEvent
  | QueueBridgeEvent
  | QueueBridgeEndEvent;

/** The call an event is mostly about, for the engine's `queue` events. */
export function eventCallSid(event: EngineQueueEvent): string | undefined {
  if (event.type === 'match') return event.waiting.callSid;
  if (event.type === 'position-change') return undefined;
  return event.callSid;
}
