import type { QueueInfo, QueueSide, QueueWaitParams } from '../../queue/index.js';
import type { BridgeEnd } from '../bridge.js';
import type { Clock } from '../clock/clock.js';
import { Interrupted } from '../errors.js';
import type { EngineQueueEvent } from './events.js';
import { type JoinKind, runJoinDoc } from './join.js';
import { onStop, type QueueDoc, type QueueParty } from './party.js';

/** How a match ended. */
export interface PairEnd {
  /** False when one call was gone before the two were connected. */
  bridged: boolean;
  /** The side that left (hung up or was redirected), or `time-limit`. */
  endedBy: QueueSide | 'time-limit';
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

/**
 * Two matched calls: each runs its join documents, then both are connected until one leaves
 * (hang-up or live redirect of its script) or the dialer's `timeLimit` runs out. Both calls'
 * verbs await `done` and go on from there.
 */
export class Pairing {
  readonly done: Promise<PairEnd>;
  readonly enqueued: QueueParty;
  readonly dialer: QueueParty;
  /** How long each side waited in the queue, ms. */
  readonly waitMs: Record<QueueSide, number>;
  /** The side of the call that was waiting when the other arrived (the "queued agent"). */
  readonly waitingSide: QueueSide;
  private resolve!: (end: PairEnd) => void;
  private ready = 0;
  private startedAt: number | undefined;
  private ended: PairEnd | undefined;

  constructor(
    private readonly svc: PairingHost,
    readonly queue: QueueInfo,
    arriving: QueueParty,
    arrivingWaitMs: number,
    waiting: QueueParty,
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
    onStop(this.enqueued, () => this.finish('enqueued'));
    onStop(this.dialer, () => this.finish('dialer'));
  }

  /** The call's sid on `side`. */
  sid(side: QueueSide): string {
    return (side === 'enqueued' ? this.enqueued : this.dialer).ctx.call.sid;
  }

  /** Runs `side`'s join documents, then waits for the bridge to end. */
  async take(side: QueueSide): Promise<PairEnd> {
    const party = side === 'enqueued' ? this.enqueued : this.dialer;
    const docs: Array<[QueueDoc | undefined, JoinKind]> =
      side === 'enqueued'
        ? [
            [this.enqueued.joinDoc, 'joinUrl'],
            [this.dialer.partnerDoc, 'Queue url'],
          ]
        : [[this.dialer.joinDoc, 'joinUrl']];
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
    if (!this.ended && ++this.ready === 2) this.connect();
    return this.done;
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
    void this.enqueued.ctx.services
      .bridgeWith(this.dialer.ctx.services, {
        timeLimit: limit === undefined ? undefined : limit / 1000,
      })
      .then((result) => this.finish(BRIDGE_END[result.endedBy] ?? this.leftSide()));
  }

  /** The side whose script stopped (a live modification took it out of the bridge). */
  private leftSide(): QueueSide {
    return this.enqueued.ctx.signal.aborted ? 'enqueued' : 'dialer';
  }

  private finish(endedBy: PairEnd['endedBy']): void {
    if (this.ended) return;
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
    this.enqueued.ctx.services.leaveBridge();
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
