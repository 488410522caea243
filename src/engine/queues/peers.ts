import type { QueueInfo, QueueSide } from '../../queue/index.js';
import type { QueueDoc } from './party.js';

/** Who or what ended a pairing: the side that left, or the dialer's `timeLimit`. */
export type PairEndedBy = QueueSide | 'time-limit';

/** What one side of a match tells the other before the two are connected. */
export interface LegTerms {
  /** Dialers only: the Queue noun `url`, run on the enqueued partner before the bridge. */
  partnerDoc?: QueueDoc;
  /** Dialers only: longest bridge (the Dial `timeLimit`), ms. */
  timeLimitMs?: number;
}

/** A match between a call arriving on one node and a call waiting on another. */
export interface RemoteOffer {
  queue: QueueInfo;
  /** The call that was waiting (at the head of its side); it runs on `node`. */
  waiting: { callSid: string; side: QueueSide; node: string; waitMs: number };
  /** The call that arrived, on the node making the offer. */
  arriving: { callSid: string; side: QueueSide } & LegTerms;
}

/** What a remote leg reports to the pairing that holds it. */
export interface RemoteLegEvents {
  /** The other node's side has run its join documents: ready to be connected. */
  ready(): void;
  /** The other side left (hang-up, live redirect, failure) or its time limit passed. */
  left(endedBy: PairEndedBy): void;
}

/**
 * The other side of a pairing when its call runs on another node: a proxy that carries this
 * side's news there and the other side's news back. The local side of a pairing is its
 * {@link QueueParty}; either side of a `Pairing` may be one of these instead.
 */
export interface RemoteLeg extends LegTerms {
  readonly callSid: string;
  readonly side: QueueSide;
  /** The node that runs the call. */
  readonly node: string;
  /** Starts receiving the other node's news (buffered until then). */
  bind(events: RemoteLegEvents): void;
  /** This side has run its join documents. Resolves once sent (never rejects). */
  ready(): Promise<void>;
  /**
   * This side left the pairing, or its time limit passed; the proxy is done after this.
   * Resolves once sent (never rejects).
   */
  leave(endedBy: PairEndedBy): Promise<void>;
}

/**
 * How an engine's queues reach calls running on the other nodes of a cluster (the queue store
 * says on which node each waiting call runs). The engine defines this port; `src/cluster`
 * implements it over Redis.
 */
export interface QueuePeers {
  /** This node's name, as the queue store records it on the members it adds. */
  readonly nodeId: string;
  /**
   * Hands a match to the waiting call's node: resolves with that call's leg once its node took
   * the match, or undefined when the call was gone (the arriving call then arrives again).
   */
  offer(offer: RemoteOffer): Promise<RemoteLeg | undefined>;
  /**
   * Sets who answers the offers made to this node: the waiting call's terms when it takes the
   * match (its pairing then holds `leg`, the arriving call), undefined when it is gone.
   */
  serve(accept: (offer: RemoteOffer, leg: RemoteLeg) => Promise<LegTerms | undefined>): void;
}
