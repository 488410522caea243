import {
  type AfterBridgeOutcome,
  type ArriveOutcome,
  type LeaveOutcome,
  type LeaveReason,
  parseMaxQueueSize,
  QueueError,
  type QueueInfo,
  QueueMatcher,
  type QueueMember,
  type QueueStore,
  type QueueWaitParams,
  queueResultFor,
  queueWaitParams,
} from '../../queue/index.js';
import type { Clock } from '../clock/clock.js';
import type { SidGenerator } from '../sids.js';
import type { EngineEventListener } from '../types.js';
import { type EngineQueueEvent, eventCallSid } from './events.js';
import { Pairing } from './pairing.js';
import type { QueueParty } from './party.js';
import type { LegTerms, QueuePeers, RemoteLeg, RemoteOffer } from './peers.js';
import { clockTrackedStore } from './tracked-store.js';
import { Waiter, type WaiterHost } from './waiter.js';

/** Queue options of `createEngine`. */
export interface EngineQueueOptions {
  /** Where queues and their members live. Default: a fresh in-memory store. */
  store?: QueueStore;
  /** Size limit of new queues, 1..5000. Default 100. */
  maxSize?: number;
  /**
   * The other nodes of a cluster sharing `store`: a match with a call waiting on another node
   * is bridged across nodes through them. Without it such a match is retried.
   */
  peers?: QueuePeers;
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
  /** Arrivals not yet settled, by call sid (an offer from another node may overtake them). */
  private readonly arriving = new Map<string, Promise<unknown>>();
  private readonly peers: QueuePeers | undefined;

  constructor(
    private readonly rt: QueueServiceHost,
    options: EngineQueueOptions = {},
  ) {
    this.clock = rt.clock;
    const maxSize =
      options.maxSize === undefined ? undefined : parseMaxQueueSize(options.maxSize, 'queues.maxSize');
    this.peers = options.peers;
    // A shared store answers over the network: a virtual clock waits for it like for a fetch.
    const store =
      options.store && rt.clock.kind === 'virtual'
        ? clockTrackedStore(options.store, rt.clock)
        : options.store;
    this.matcher = new QueueMatcher({
      clock: () => rt.clock.now(),
      store,
      newSid: () => rt.sids.next('QU'),
      defaultMaxSize: maxSize,
      listener: rt.listener ? (event) => this.emit(event) : undefined,
    });
    services.set(rt, this);
    this.peers?.serve((offer, leg) => this.takeOffer(offer, leg));
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
  arrive(party: QueueParty): Promise<Arrival> {
    return this.settling(party, async () => {
      const outcome = await this.matcher.arrive({
        accountSid: party.ctx.call.accountSid,
        queueName: party.name,
        callSid: party.ctx.call.sid,
        side: party.side,
      });
      return this.settle(party, outcome);
    });
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
    let outcome: AfterBridgeOutcome;
    try {
      outcome = await this.settling(party, () =>
        this.matcher.afterBridge({
          queueSid: queue.sid,
          callSid: party.ctx.call.sid,
          side: party.side,
          rejoin,
        }),
      );
    } catch (err) {
      // The shared store lost the queue (Redis restarted empty): nobody waits in it any more.
      if (!(err instanceof QueueError && err.code === 'unknown-queue')) throw err;
      return rejoin ? this.arrive(party) : { status: 'drop' };
    }
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

  async leave(waiter: Waiter, reason: LeaveReason): Promise<LeaveOutcome | undefined> {
    let left: LeaveOutcome | undefined;
    try {
      left = await this.matcher.leave(waiter.ticket, reason);
    } catch (err) {
      // The shared store lost the queue (Redis restarted empty) before this call was put back:
      // it leaves from where it waited.
      if (!(err instanceof QueueError && err.code === 'unknown-queue')) throw err;
      const now = this.rt.clock.now();
      const { callSid, side } = waiter.ticket;
      left = {
        member: { callSid, side, enqueuedAt: waiter.since },
        position: 1,
        waitMs: Math.max(0, now - waiter.since),
        result: queueResultFor(reason),
      };
    }
    // Not waiting any more: matched, possibly from another node whose offer is on its way.
    if (left && this.waiters.get(waiter.ticket.callSid) === waiter)
      this.waiters.delete(waiter.ticket.callSid);
    return left;
  }

  /**
   * The shared store lost its queues (Redis restarted empty): every call waiting on this node
   * arrives again, oldest first, in the queue of the same name (made anew when needed). One
   * that meets a call waiting on the other side is matched as on any arrival; the others wait
   * again, their waits counted from now in the store. Returns how many calls were put back.
   */
  async restore(): Promise<number> {
    const waiting = [...this.waiters.values()].sort((a, b) => a.since - b.since);
    let restored = 0;
    for (const waiter of waiting) {
      const party = waiter.party;
      const sid = party.ctx.call.sid;
      for (;;) {
        if (waiter.done || party.ctx.signal.aborted || this.waiters.get(sid) !== waiter) break;
        const outcome = await this.matcher.arrive({
          accountSid: party.ctx.call.accountSid,
          queueName: party.name,
          callSid: sid,
          side: party.side,
        });
        if (outcome.status === 'queue-full') break;
        if (outcome.status === 'waiting') {
          waiter.moveTo(outcome.queue, outcome.ticket);
          restored++;
          break;
        }
        this.waiters.delete(sid);
        const arrival = await this.pairWith(party, outcome.queue, outcome.partner, outcome.partnerWaitMs);
        if (arrival.status === 'paired') {
          waiter.deliver(arrival.pairing);
          restored++;
          break;
        }
        // Matched with a call already gone: arrive again.
        this.waiters.set(sid, waiter);
      }
    }
    return restored;
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

  /** Runs an arrival of `party`, known as in flight until it settles. */
  private settling<T>(party: QueueParty, work: () => Promise<T>): Promise<T> {
    const sid = party.ctx.call.sid;
    const done = work();
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.arriving.set(sid, settled);
    void settled.then(() => {
      if (this.arriving.get(sid) === settled) this.arriving.delete(sid);
    });
    return done;
  }

  private settle(party: QueueParty, outcome: ArriveOutcome): Arrival | Promise<Arrival> {
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
  ): Arrival | Promise<Arrival> {
    const waiter = this.waiters.get(partner.callSid);
    const peers = this.peers;
    if (!waiter && peers && partner.node !== undefined && partner.node !== peers.nodeId) {
      return this.pairAcross(peers, party, queue, { ...partner, node: partner.node }, partnerWaitMs);
    }
    // Gone (hung up or redirected) before the match reached it: the newcomer arrives again.
    if (!waiter) return { status: 'retry', queue };
    this.waiters.delete(partner.callSid);
    const pairing = new Pairing(this, queue, party, 0, waiter.party, partnerWaitMs);
    waiter.deliver(pairing);
    return { status: 'paired', queue, pairing, waitMs: 0 };
  }

  /** A match with a call waiting on another node: offered to that node, bridged if it takes it. */
  private async pairAcross(
    peers: QueuePeers,
    party: QueueParty,
    queue: QueueInfo,
    partner: QueueMember & { node: string },
    partnerWaitMs: number,
  ): Promise<Arrival> {
    const leg = await this.clock.track(
      peers.offer({
        queue,
        waiting: { callSid: partner.callSid, side: partner.side, node: partner.node, waitMs: partnerWaitMs },
        arriving: {
          callSid: party.ctx.call.sid,
          side: party.side,
          partnerDoc: party.partnerDoc,
          timeLimitMs: party.timeLimitMs,
        },
      }),
    );
    if (!leg) return { status: 'retry', queue };
    const pairing = new Pairing(this, queue, party, 0, leg, partnerWaitMs);
    return { status: 'paired', queue, pairing, waitMs: 0 };
  }

  /**
   * Another node matched a call of this one: the waiting call takes the match as it would a
   * local one, unless it is gone (hung up, redirected, or no longer in that queue).
   */
  private async takeOffer(offer: RemoteOffer, leg: RemoteLeg): Promise<LegTerms | undefined> {
    const sid = offer.waiting.callSid;
    await this.arriving.get(sid);
    const waiter = this.waiters.get(sid);
    if (!waiter || waiter.queue.sid !== offer.queue.sid || waiter.party.side !== offer.waiting.side) {
      return undefined;
    }
    this.waiters.delete(sid);
    if (waiter.party.ctx.signal.aborted) return undefined;
    const pairing = new Pairing(this, offer.queue, leg, 0, waiter.party, offer.waiting.waitMs);
    waiter.deliver(pairing);
    const { partnerDoc, timeLimitMs } = waiter.party;
    return { partnerDoc, timeLimitMs };
  }
}
