import type { QueueInfo, QueueSide, QueueWaitParams } from '../../queue/index.js';
import type { BridgeEnd } from '../bridge.js';
import type { Clock, TimerHandle } from '../clock/clock.js';
import { Interrupted } from '../errors.js';
import type { EngineQueueEvent } from './events.js';
import { type JoinKind, runJoinDoc } from './join.js';
import { onStop, type QueueDoc, type QueueParty } from './party.js';
import type { PairEndedBy, RemoteLeg } from './peers.js';

/** How a match ended. */
export interface PairEnd {
  /** False when one call was gone before the two were connected. */
  bridged: boolean;
  /** The side that left (hung up or was redirected), or `time-limit`. */
  endedBy: PairEndedBy;
  /** Whole seconds connected. */
  duration: number;
}

const BRIDGE_END: Partial<Record<BridgeEnd, PairEnd['endedBy']>> = {
  'a-hangup': 'enqueued',
  'b-hangup': 'dialer',
  'time-limit': 'time-limit',
};

/** What a pairing needs from the queue service that made it. */
export interface PairingHost {
  readonly clock: Clock;
  /** Whether anyone listens (events are only built then). */
  readonly listening: boolean;
  emit(event: EngineQueueEvent): void;
  joinParams(queue: QueueInfo, party: QueueParty, waitMs: number): Promise<QueueWaitParams>;
}

/** One side of a pairing: a call of this engine, or a proxy for a call running on another node. */
export type PairSide = QueueParty | RemoteLeg;

const isLocal = (side: PairSide): side is QueueParty => 'ctx' in side;

/**
 * Two matched calls: each runs its join documents, then both are connected until one leaves
 * (hang-up or live redirect of its script) or the dialer's `timeLimit` runs out. Both calls'
 * verbs await `done` and go on from there. When one call runs on another node, this pairing
 * holds the local call and a {@link RemoteLeg}; the other node holds the mirror pairing, and
 * the two exchange readiness and departures through the leg.
 */
export class Pairing {
  readonly done: Promise<PairEnd>;
  readonly enqueued: PairSide;
  readonly dialer: PairSide;
  /** How long each side waited in the queue, ms. */
  readonly waitMs: Record<QueueSide, number>;
  /** The side of the call that was waiting when the other arrived (the "queued agent"). */
  readonly waitingSide: QueueSide;
  private resolve!: (end: PairEnd) => void;
  private ready = 0;
  private startedAt: number | undefined;
  private ended: PairEnd | undefined;
  private timer: TimerHandle | null = null;
  /** The side on another node, if any. */
  private readonly remote: RemoteLeg | undefined;

  constructor(
    private readonly svc: PairingHost,
    readonly queue: QueueInfo,
    arriving: PairSide,
    arrivingWaitMs: number,
    waiting: PairSide,
    waitingWaitMs: number,
  ) {
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    const byEnqueue = arriving.side === 'enqueued';
    this.waitingSide = waiting.side;
    this.enqueued = byEnqueue ? arriving : waiting;
    this.dialer = byEnqueue ? waiting : arriving;
    this.waitMs = {
      enqueued: byEnqueue ? arrivingWaitMs : waitingWaitMs,
      dialer: byEnqueue ? waitingWaitMs : arrivingWaitMs,
    };
    // A side whose script stops (hang-up, live redirect) ends the pairing at once.
    for (const side of [this.enqueued, this.dialer]) {
      if (isLocal(side)) onStop(side, () => this.finish(side.side));
      else this.remote = side;
    }
    this.remote?.bind({
      ready: () => this.sideReady(),
      left: (endedBy) => this.finish(endedBy, true),
    });
  }

  /** The call's sid on `side`. */
  sid(side: QueueSide): string {
    const party = side === 'enqueued' ? this.enqueued : this.dialer;
    return isLocal(party) ? party.ctx.call.sid : party.callSid;
  }

  /** Runs `side`'s join documents (a call of this engine), then waits for the bridge to end. */
  async take(side: QueueSide): Promise<PairEnd> {
    const party = side === 'enqueued' ? this.enqueued : this.dialer;
    if (!isLocal(party)) throw new Error(`the ${side} call of this pairing runs on node ${party.node}`);
    const docs: Array<[QueueDoc | undefined, JoinKind]> =
      side === 'enqueued'
        ? [
            [party.joinDoc, 'joinUrl'],
            [this.dialer.partnerDoc, 'Queue url'],
          ]
        : [[party.joinDoc, 'joinUrl']];
    try {
      for (const [doc, kind] of docs) {
        if (!doc || this.ended) continue;
        const params = await this.svc.joinParams(this.queue, party, this.waitMs[side]);
        if (this.ended) break;
        this.emitJoin(side, doc.url);
        await runJoinDoc(party.ctx, doc, kind, params, () => this.ended !== undefined);
      }
    } catch (err) {
      if (!(err instanceof Interrupted)) {
        // This side cannot go on (queue store failure): its partner sees it leave.
        this.finish(side);
        throw err;
      }
    }
    if (!this.ended) {
      if (this.remote) void this.svc.clock.track(this.remote.ready());
      this.sideReady();
    }
    return this.done;
  }

  private sideReady(): void {
    if (!this.ended && ++this.ready === 2) this.connect();
  }

  /** Connects the two calls (the engine's bridge) until one leaves or the time limit passes. */
  private connect(): void {
    const now = this.svc.clock.now();
    this.startedAt = now;
    if (this.svc.listening) {
      this.svc.emit({
        ...this.base(now),
        type: 'bridge',
        callSid: this.sid('enqueued'),
        partnerCallSid: this.sid('dialer'),
      });
    }
    const limit = this.dialer.timeLimitMs;
    const { enqueued, dialer } = this;
    if (!isLocal(enqueued) || !isLocal(dialer)) {
      // Across nodes each node runs its own leg; the dialer's node keeps its time limit.
      if (isLocal(dialer) && limit !== undefined) {
        this.timer = this.svc.clock.setTimeout(() => this.finish('time-limit'), limit);
      }
      return;
    }
    void enqueued.ctx.services
      .bridgeWith(dialer.ctx.services, {
        timeLimit: limit === undefined ? undefined : limit / 1000,
      })
      .then((result) => this.finish(BRIDGE_END[result.endedBy] ?? this.leftSide()));
  }

  /** The side whose script stopped (a live modification took it out of the bridge). */
  private leftSide(): QueueSide {
    return isLocal(this.enqueued) && this.enqueued.ctx.signal.aborted ? 'enqueued' : 'dialer';
  }

  /** Ends the pairing once; `fromRemote` when the other node said so (no need to tell it back). */
  private finish(endedBy: PairEnd['endedBy'], fromRemote = false): void {
    if (this.ended) return;
    if (this.timer) this.svc.clock.clearTimeout(this.timer);
    this.timer = null;
    const clock = this.svc.clock;
    const now = clock.now();
    const bridged = this.startedAt !== undefined;
    const duration = bridged ? Math.ceil((now - (this.startedAt ?? now)) / 1000) : 0;
    this.ended = { bridged, endedBy, duration };
    if (this.svc.listening) {
      this.svc.emit({
        ...this.base(now),
        type: 'bridge-end',
        callSid: this.sid('enqueued'),
        partnerCallSid: this.sid('dialer'),
        endedBy,
        bridged,
        duration,
      });
    }
    // A side redirected away mid-bridge: take the calls apart (a hang-up already has).
    if (isLocal(this.enqueued) && isLocal(this.dialer)) this.enqueued.ctx.services.leaveBridge();
    if (this.remote && !fromRemote) void this.svc.clock.track(this.remote.leave(endedBy));
    this.resolve(this.ended);
  }

  private emitJoin(side: QueueSide, url: string): void {
    if (!this.svc.listening) return;
    this.svc.emit({
      ...this.base(this.svc.clock.now()),
      type: 'join',
      callSid: this.sid(side),
      partnerCallSid: this.sid(side === 'enqueued' ? 'dialer' : 'enqueued'),
      url,
    });
  }

  private base(at: number) {
    const q = this.queue;
    return { at, queueSid: q.sid, accountSid: q.accountSid, queueName: q.name };
  }
}
