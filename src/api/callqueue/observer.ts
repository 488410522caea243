import type { QueueEvent, QueueSide } from '../../queue/index.js';
import type { NewCallQueueEvent } from '../../store/callqueue/types.js';
import { normalizePhoneNumber } from './phone-number.js';
import type { LiveCallInfo } from './routing.js';
import type { CallQueueService } from './service.js';

/** Phone numbers whose calls were seen on each side of a queue. */
export interface QueuePairing {
  /** Numbers whose callers Dial the queue (customers). */
  dialer: Set<string>;
  /** Numbers whose callers Enqueue (agents). */
  enqueued: Set<string>;
}

/**
 * Records the queue steps of calls to provisioned numbers (enqueue, match, leave, timeout,
 * queue-full, rejoin, drop) against their number and call, and remembers which numbers feed
 * which side of each queue. Status callbacks are recorded by the callback endpoint.
 */
export class QueueObserver {
  private readonly pairings = new Map<string, QueuePairing>();
  /**
   * Calls waiting in a queue: a call that hangs up while waiting has left the engine by the
   * time its `leave` is reported, so its number is remembered until then.
   */
  private readonly waiting = new Map<string, LiveCallInfo>();
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly service: CallQueueService,
    private readonly onError: (err: unknown) => void,
  ) {
    this.unsubscribe = service.routing?.subscribe((event) => this.observe(event));
  }

  /** Which numbers feed the sides of a queue (empty sets before any call of theirs arrived). */
  pairing(queueSid: string): QueuePairing {
    return this.pairings.get(queueSid) ?? { dialer: new Set(), enqueued: new Set() };
  }

  close(): void {
    this.unsubscribe?.();
  }

  private observe(event: QueueEvent): void {
    const base = { queueSid: event.queueSid, queueName: event.queueName, at: event.at };
    switch (event.type) {
      case 'enqueue':
        this.record(event.callSid, event.side, {
          ...base,
          type: 'enqueue',
          side: event.side,
          position: event.position,
        });
        return;
      case 'match':
        this.record(event.waiting.callSid, event.waiting.side, {
          ...base,
          type: 'match',
          side: event.waiting.side,
          partnerCallSid: event.arriving.callSid,
          waitMs: event.waiting.waitMs,
        });
        this.record(event.arriving.callSid, event.arriving.side, {
          ...base,
          type: 'match',
          side: event.arriving.side,
          partnerCallSid: event.waiting.callSid,
          waitMs: 0,
        });
        return;
      case 'leave':
        this.record(event.callSid, event.side, {
          ...base,
          type: 'leave',
          side: event.side,
          reason: event.reason,
          position: event.position,
          waitMs: event.waitMs,
        });
        return;
      case 'timeout':
        this.record(event.callSid, event.side, {
          ...base,
          type: 'timeout',
          side: event.side,
          position: event.position,
          waitMs: event.waitMs,
        });
        return;
      case 'queue-full':
      case 'rejoin':
      case 'drop':
        this.record(event.callSid, event.side, { ...base, type: event.type, side: event.side });
        return;
      default:
        return;
    }
  }

  private record(
    callSid: string,
    side: QueueSide,
    fields: Omit<NewCallQueueEvent, 'accountSid' | 'numberSid' | 'callSid'>,
  ): void {
    const call = this.service.routing?.liveCall(callSid) ?? this.waiting.get(callSid);
    const numberSid = call?.phoneNumberSid;
    if (!call || numberSid === undefined || !this.service.isRouted(numberSid)) return;
    if (fields.type === 'enqueue') this.waiting.set(callSid, call);
    else this.waiting.delete(callSid);
    const queueSid = fields.queueSid as string;
    const pairing = this.pairings.get(queueSid) ?? { dialer: new Set<string>(), enqueued: new Set<string>() };
    this.pairings.set(queueSid, pairing);
    pairing[side].add(normalizePhoneNumber(call.to) ?? call.to);
    this.service.store.events
      .append({ ...fields, accountSid: call.accountSid, numberSid, callSid })
      .catch(this.onError);
  }
}
