import { QueueDirectory, type QueueDirectoryOptions } from './directory.js';
import { QueueError } from './errors.js';
import type { QueueEvent, QueueEventBase, QueueListener } from './events.js';
import type {
  AfterBridgeOutcome,
  AfterBridgeRequest,
  ArriveOutcome,
  ArriveRequest,
  LeaveOutcome,
} from './matcher-types.js';
import { parseQueueName } from './options.js';
import { decideAfterBridge } from './rejoin.js';
import { queueResultFor } from './result.js';
import { KeyedSerializer } from './serialize.js';
import { type QueueSnapshot, viewSide } from './snapshot.js';
import type { AtomicArrival, QueueStore } from './store.js';
import {
  type LeaveReason,
  otherSide,
  type QueueInfo,
  type QueueMember,
  type QueueSide,
  type QueueTicket,
  type ServedStats,
} from './types.js';
import { type QueueWaitParams, queueWaitParams } from './wait-params.js';

export type {
  AfterBridgeOutcome,
  AfterBridgeRequest,
  ArriveOutcome,
  ArriveRequest,
  LeaveOutcome,
} from './matcher-types.js';

/** Construction options of {@link QueueMatcher}. */
export interface QueueMatcherOptions extends QueueDirectoryOptions {
  /** Receives every event; more can be added with {@link QueueMatcher.subscribe}. */
  listener?: QueueListener;
}

/**
 * Two-sided FIFO matching over a {@link QueueStore}: a newcomer meets the head of the other
 * side at once, or waits at the tail of its own. Operations on one queue run one at a time.
 * The queues themselves (creation, lookup, size limits) are the {@link QueueDirectory}'s.
 */
export class QueueMatcher extends QueueDirectory {
  private readonly listeners = new Set<QueueListener>();
  private readonly serial = new KeyedSerializer();

  constructor(options: QueueMatcherOptions) {
    super(options);
    if (options.listener) this.listeners.add(options.listener);
  }

  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: QueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A call runs Enqueue. */
  enqueue(request: Omit<ArriveRequest, 'side'>): Promise<ArriveOutcome> {
    return this.arrive({ ...request, side: 'enqueued' });
  }

  /** A call runs Dial with a Queue noun. */
  dial(request: Omit<ArriveRequest, 'side'>): Promise<ArriveOutcome> {
    return this.arrive({ ...request, side: 'dialer' });
  }

  /** A call arrives on `side`: matched with the other side's head, else waits at its own tail. */
  async arrive(request: ArriveRequest): Promise<ArriveOutcome> {
    checkArrival(request);
    if (this.store.arriveByName && this.store.arrive) {
      // One step when the queue exists (the steady state): no separate lookup by name.
      const now = this.clock();
      const name = parseQueueName(request.queueName, 'queue name');
      const member = { callSid: request.callSid, side: request.side, enqueuedAt: now };
      const done = await this.store.arriveByName(request.accountSid, name, member);
      if (done) return this.reportArrival(done, request.callSid, request.side, now);
    }
    const queue = await this.queue(request.accountSid, request.queueName);
    // A store with an atomic arrival orders arrivals itself (for every process sharing it), so
    // this process's arrivals need not wait for each other: several are in flight at once.
    if (this.store.arrive) return this.arriveAtomic(queue, request.callSid, request.side);
    return this.serial.run(queue.sid, async () => {
      // The size limit may have changed since `queue` was read.
      const current = (await this.store.getQueue(queue.sid)) ?? queue;
      return this.arriveLocked(current, request.callSid, request.side);
    });
  }

  /**
   * An arrival through the store's atomic `arrive` (a store shared by several processes): the
   * store decides in one step, this reports it exactly as {@link arriveLocked} would.
   */
  private async arriveAtomic(queue: QueueInfo, callSid: string, side: QueueSide): Promise<ArriveOutcome> {
    const now = this.clock();
    const done = await (this.store.arrive as NonNullable<QueueStore['arrive']>)(queue.sid, {
      callSid,
      side,
      enqueuedAt: now,
    });
    return this.reportArrival(
      done.status === 'already-waiting' ? { ...done, queueSid: queue.sid } : done,
      callSid,
      side,
      now,
    );
  }

  /** What the store's atomic arrival did, reported (events, outcome) as {@link arriveLocked} would. */
  private reportArrival(done: AtomicArrival, callSid: string, side: QueueSide, now: number): ArriveOutcome {
    const other = otherSide(side);
    if (done.status === 'already-waiting') {
      throw new QueueError(
        'already-waiting',
        `call ${callSid} is already waiting on the ${other} side of ${done.queueSid}`,
      );
    }
    const current = done.queue;
    if (done.status === 'matched') {
      const partnerWaitMs = Math.max(0, now - done.partner.enqueuedAt);
      if (this.listening) {
        const base = this.base(current, now);
        this.emit({
          ...base,
          type: 'match',
          waiting: { callSid: done.partner.callSid, side: other, waitMs: partnerWaitMs },
          arriving: { callSid, side },
        });
        if (done.otherSize >= 1) {
          this.emit({ ...base, type: 'position-change', side: other, vacated: 1, size: done.otherSize });
        }
      }
      return { status: 'matched', queue: current, partner: done.partner, partnerWaitMs };
    }
    if (done.status === 'queue-full') {
      this.emit({
        ...this.base(current, now),
        type: 'queue-full',
        callSid,
        side,
        size: done.size,
        maxSize: current.maxSize,
      });
      return { status: 'queue-full', queue: current, size: done.size };
    }
    const position = done.position;
    if (this.listening)
      this.emit({ ...this.base(current, now), type: 'enqueue', callSid, side, position, size: position });
    return { status: 'waiting', queue: current, ticket: { queueSid: current.sid, side, callSid }, position };
  }

  /**
   * Removes a waiting call without a match (Leave, hang-up, redirect, error, timeout). Undefined
   * when it is no longer waiting, e.g. it was matched first: the caller then treats it as bridged.
   */
  leave(ticket: QueueTicket, reason: LeaveReason): Promise<LeaveOutcome | undefined> {
    return this.serial.run(ticket.queueSid, async () => {
      const queue = await this.requireQueue(ticket.queueSid);
      const removed = await this.store.remove(queue.sid, ticket.side, ticket.callSid);
      if (!removed) return undefined;
      const now = this.clock();
      const waitMs = Math.max(0, now - removed.member.enqueuedAt);
      const base = this.base(queue, now);
      const common = { callSid: ticket.callSid, side: ticket.side, position: removed.position, waitMs };
      if (reason === 'timeout') this.emit({ ...base, type: 'timeout', ...common });
      else this.emit({ ...base, type: 'leave', ...common, reason });
      await this.emitPositionChange(queue, ticket.side, removed.position, now);
      return { ...removed, waitMs, result: queueResultFor(reason) };
    });
  }

  /** The call's 1-based position, or undefined when it is not waiting. */
  async position(ticket: QueueTicket): Promise<number | undefined> {
    return (await this.store.position(ticket.queueSid, ticket.side, ticket.callSid))?.position;
  }

  /** Parameters for the call's next `waitUrl`/`joinUrl` request, or undefined when it is not waiting. */
  waitParams(ticket: QueueTicket): Promise<QueueWaitParams | undefined> {
    return this.serial.run(ticket.queueSid, async () => {
      const queue = await this.requireQueue(ticket.queueSid);
      const located = await this.store.position(queue.sid, ticket.side, ticket.callSid);
      if (!located) return undefined;
      return queueWaitParams({
        queue,
        position: located.position,
        enqueuedAt: located.member.enqueuedAt,
        now: this.clock(),
        size: await this.store.size(queue.sid, ticket.side),
        served: await this.store.servedStats(queue.sid, ticket.side),
      });
    });
  }

  /** Members waiting on `side` and the waits of those served from it so far. O(1) in memory. */
  async sideStats(queueSid: string, side: QueueSide): Promise<{ size: number; served: ServedStats }> {
    return {
      size: await this.store.size(queueSid, side),
      served: await this.store.servedStats(queueSid, side),
    };
  }

  /** Both sides in order with positions and waits, averages and limits. O(n). */
  inspect(queueSid: string): Promise<QueueSnapshot> {
    return this.serial.run(queueSid, async () => {
      const queue = await this.requireQueue(queueSid);
      const now = this.clock();
      const side = async (s: QueueSide) =>
        viewSide(s, await this.store.list(queueSid, s), await this.store.servedStats(queueSid, s), now);
      return {
        queue,
        at: now,
        maxSize: queue.maxSize,
        enqueued: await side('enqueued'),
        dialer: await side('dialer'),
      };
    });
  }

  /**
   * Applies the rejoin rule to a queued agent whose customer hung up after their call: the next
   * customer waiting is connected; else with `rejoin` the agent waits again; else it is dropped.
   */
  afterBridge(request: AfterBridgeRequest): Promise<AfterBridgeOutcome> {
    const side = request.side ?? 'enqueued';
    return this.serial.run(request.queueSid, async () => {
      const queue = await this.requireQueue(request.queueSid);
      const customers = otherSide(side);
      let decision = decideAfterBridge({
        customersWaiting: await this.store.size(queue.sid, customers),
        rejoin: request.rejoin,
      });
      const now = this.clock();
      if (decision === 'connect-next') {
        const matched = await this.takeHead(queue, customers, request.callSid, side, now);
        if (matched) return { decision, ...matched };
        // Counted, then gone before it was taken: a store shared by nodes (another node
        // matched it, or took its dead node over). The rule applies as to no customer waiting.
        decision = decideAfterBridge({ customersWaiting: 0, rejoin: request.rejoin });
      }
      if (decision === 'drop') {
        this.emit({ ...this.base(queue, now), type: 'drop', callSid: request.callSid, side });
        return { decision };
      }
      this.emit({ ...this.base(queue, now), type: 'rejoin', callSid: request.callSid, side });
      return { decision: 'rejoin', arrival: await this.arriveLocked(queue, request.callSid, side) };
    });
  }

  private async arriveLocked(queue: QueueInfo, callSid: string, side: QueueSide): Promise<ArriveOutcome> {
    if (this.store.arrive) return this.arriveAtomic(queue, callSid, side);
    const other = otherSide(side);
    if (await this.store.position(queue.sid, other, callSid)) {
      throw new QueueError(
        'already-waiting',
        `call ${callSid} is already waiting on the ${other} side of ${queue.sid}`,
      );
    }
    const now = this.clock();
    const matched = await this.takeHead(queue, other, callSid, side, now);
    if (matched) return { status: 'matched', queue, ...matched };
    const size = await this.store.size(queue.sid, side);
    if (size >= queue.maxSize) {
      this.emit({
        ...this.base(queue, now),
        type: 'queue-full',
        callSid,
        side,
        size,
        maxSize: queue.maxSize,
      });
      return { status: 'queue-full', queue, size };
    }
    const position = await this.store.enqueue(queue.sid, { callSid, side, enqueuedAt: now });
    if (this.listening)
      this.emit({ ...this.base(queue, now), type: 'enqueue', callSid, side, position, size: position });
    return { status: 'waiting', queue, ticket: { queueSid: queue.sid, side, callSid }, position };
  }

  /** Dequeues the head of `side` for `arriving`, records its wait and reports the match. */
  private async takeHead(
    queue: QueueInfo,
    side: QueueSide,
    arriving: string,
    arrivingSide: QueueSide,
    now: number,
  ): Promise<{ partner: QueueMember; partnerWaitMs: number } | undefined> {
    const partner = await this.store.dequeueHead(queue.sid, side);
    if (!partner) return undefined;
    const partnerWaitMs = Math.max(0, now - partner.enqueuedAt);
    await this.store.recordServed(queue.sid, side, partnerWaitMs);
    if (this.listening) {
      this.emit({
        ...this.base(queue, now),
        type: 'match',
        waiting: { callSid: partner.callSid, side, waitMs: partnerWaitMs },
        arriving: { callSid: arriving, side: arrivingSide },
      });
    }
    await this.emitPositionChange(queue, side, 1, now);
    return { partner, partnerWaitMs };
  }

  /** Reports that members behind `vacated` moved up, when there are any. */
  private async emitPositionChange(
    queue: QueueInfo,
    side: QueueSide,
    vacated: number,
    now: number,
  ): Promise<void> {
    if (!this.listening) return;
    const size = await this.store.size(queue.sid, side);
    if (size >= vacated)
      this.emit({ ...this.base(queue, now), type: 'position-change', side, vacated, size });
  }

  private base(queue: QueueInfo, at: number): QueueEventBase {
    return { at, queueSid: queue.sid, accountSid: queue.accountSid, queueName: queue.name };
  }

  /** On the hot path (arrivals, matches) events are only built when someone listens. */
  private get listening(): boolean {
    return this.listeners.size > 0;
  }

  private emit(event: QueueEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** Refuses arrivals the engine should never send, naming the field. */
function checkArrival(request: ArriveRequest): void {
  for (const field of ['accountSid', 'callSid'] as const) {
    const value: unknown = request[field];
    if (typeof value !== 'string' || value === '') {
      throw new QueueError(
        'invalid-request',
        `${field}: must be a non-empty string, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (request.side !== 'enqueued' && request.side !== 'dialer') {
    throw new QueueError(
      'invalid-request',
      `side: must be 'enqueued' or 'dialer', got ${JSON.stringify(request.side)}`,
    );
  }
}
