import {
  type ArriveOutcome,
  type LeaveOutcome,
  type LeaveReason,
  parseMaxQueueSize,
  type QueueInfo,
  QueueMatcher,
  type QueueMember,
  type QueueStore,
  type QueueWaitParams,
  queueWaitParams,
} from '../../queue/index.js';
import type { Clock } from '../clock/clock.js';
import type { SidGenerator } from '../sids.js';
import type { EngineEventListener } from '../types.js';
import { type EngineQueueEvent, eventCallSid } from './events.js';
import { Pairing } from './pairing.js';
import type { QueueParty } from './party.js';
import { Waiter, type WaiterHost } from './waiter.js';

/** Queue options of `createEngine`. */
export interface EngineQueueOptions {
  /** Where queues and their members live. Default: a fresh in-memory store. */
  store?: QueueStore;
  /** Size limit of new queues, 1..5000. Default 100. */
  maxSize?: number;
}

/** Where a call stands right after arriving at (or being put back into) a queue. */
export type Arrival =
  /** Matched: the two calls go on to their join documents and the bridge. */
  | { status: 'paired'; queue: QueueInfo; pairing: Pairing; waitMs: number }
  /** Nobody to meet: the call waits (its wait loop runs). */
  | { status: 'waiting'; queue: QueueInfo; waiter: Waiter }
  /** Its side is full. */
  | { status: 'queue-full'; queue: QueueInfo }
  /** Matched with a call that was already gone: arrive again. */
  | { status: 'retry'; queue: QueueInfo };

/** What the queue service takes from its engine. */
export interface QueueServiceHost {
  readonly clock: Clock;
  readonly sids: SidGenerator;
  readonly listener: EngineEventListener | undefined;
}

const services = new WeakMap<object, QueueService>();

/**
 * The engine side of call queues: one `QueueMatcher` per engine, the calls waiting in it, and
 * the hand-over from a match to the two calls' verbs.
 */
export class QueueService implements WaiterHost {
  readonly matcher: QueueMatcher;
  readonly clock: Clock;
  private readonly waiters = new Map<string, Waiter>();

  constructor(
    private readonly rt: QueueServiceHost,
    options: EngineQueueOptions = {},
  ) {
    this.clock = rt.clock;
    const maxSize =
      options.maxSize === undefined ? undefined : parseMaxQueueSize(options.maxSize, 'queues.maxSize');
    this.matcher = new QueueMatcher({
      clock: () => rt.clock.now(),
      store: options.store,
      newSid: () => rt.sids.next('QU'),
      defaultMaxSize: maxSize,
      listener: rt.listener ? (event) => this.emit(event) : undefined,
    });
    services.set(rt, this);
  }

  /** The service of an engine, by its runtime (a verb's `services.engine`). */
  static of(rt: object): QueueService {
    const found = services.get(rt);
    if (!found) throw new Error('this engine has no queue service');
    return found;
  }

  /** Reports an event through the engine's inspection hook. */
  emit(event: EngineQueueEvent): void {
    this.rt.listener?.({ type: 'queue', at: event.at, callSid: eventCallSid(event), event });
  }

  /** Whether anyone listens (events are only built then). */
  get listening(): boolean {
    return this.rt.listener !== undefined;
  }

  /** A call arrives on its side of the named queue. */
  async arrive(party: QueueParty): Promise<Arrival> {
    const outcome = await this.matcher.arrive({
      accountSid: party.ctx.call.accountSid,
      queueName: party.name,
      callSid: party.ctx.call.sid,
      side: party.side,
    });
    return this.settle(party, outcome);
  }

  /**
   * A queued agent's partner left the bridge: connect the next call waiting on the other side,
   * put the agent back in the queue (`rejoin`), or drop it (the platform's rejoin rule).
   */
  async afterBridge(
    party: QueueParty,
    queue: QueueInfo,
    rejoin: boolean,
  ): Promise<Arrival | { status: 'drop' }> {
    const outcome = await this.matcher.afterBridge({
      queueSid: queue.sid,
      callSid: party.ctx.call.sid,
      side: party.side,
      rejoin,
    });
    if (outcome.decision === 'drop') return { status: 'drop' };
    if (outcome.decision === 'rejoin') return this.settle(party, outcome.arrival);
    return this.pairWith(party, queue, outcome.partner, outcome.partnerWaitMs);
  }

  /**
   * Forgets a call whose stay failed (an error in the queue layer): its hooks are dropped and
   * it leaves the queue if it still waits there and the store still answers.
   */
  async abandon(party: QueueParty, reason: LeaveReason): Promise<void> {
    party.stopHook = undefined;
    const waiter = this.waiters.get(party.ctx.call.sid);
    if (!waiter || waiter.party !== party) return;
    this.waiters.delete(party.ctx.call.sid);
    await waiter.depart(reason).catch(() => undefined);
  }

  leave(waiter: Waiter, reason: LeaveReason): Promise<LeaveOutcome | undefined> {
    if (this.waiters.get(waiter.ticket.callSid) === waiter) this.waiters.delete(waiter.ticket.callSid);
    return this.matcher.leave(waiter.ticket, reason);
  }

  /** Queue parameters of a request for a call that has just been matched (position 1). */
  async joinParams(queue: QueueInfo, party: QueueParty, waitMs: number): Promise<QueueWaitParams> {
    const stats = await this.matcher.sideStats(queue.sid, party.side);
    const now = this.rt.clock.now();
    return queueWaitParams({
      queue,
      position: 1,
      enqueuedAt: now - waitMs,
      now,
      size: stats.size,
      served: stats.served,
    });
  }

  private settle(party: QueueParty, outcome: ArriveOutcome): Arrival {
    if (outcome.status === 'queue-full') return { status: 'queue-full', queue: outcome.queue };
    if (outcome.status === 'matched') {
      return this.pairWith(party, outcome.queue, outcome.partner, outcome.partnerWaitMs);
    }
    const waiter = new Waiter(party, outcome.queue, outcome.ticket, this);
    this.waiters.set(party.ctx.call.sid, waiter);
    return { status: 'waiting', queue: outcome.queue, waiter };
  }

  private pairWith(
    party: QueueParty,
    queue: QueueInfo,
    partner: QueueMember,
    partnerWaitMs: number,
  ): Arrival {
    const waiter = this.waiters.get(partner.callSid);
    // Gone (hung up or redirected) before the match reached it: the newcomer arrives again.
    if (!waiter) return { status: 'retry', queue };
    this.waiters.delete(partner.callSid);
    const pairing = new Pairing(this, queue, party, 0, waiter.party, partnerWaitMs);
    waiter.deliver(pairing);
    return { status: 'paired', queue, pairing, waitMs: 0 };
  }
}
