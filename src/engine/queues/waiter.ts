import type { LeaveOutcome, LeaveReason, QueueInfo, QueueTicket } from '../../queue/index.js';
import type { TimerHandle } from '../clock/clock.js';
import type { Pairing } from './pairing.js';
import { onStop, type QueueParty } from './party.js';

/** What ends a call's wait in a queue, besides its own verbs. */
export interface WaiterHost {
  leave(waiter: Waiter, reason: LeaveReason): Promise<LeaveOutcome | undefined>;
}

/**
 * A call waiting on one side of a queue. Its wait loop runs until another call takes it
 * (`deliver`), its wait limit runs out, or it departs (Leave, hang-up, redirect).
 */
export class Waiter {
  pairing: Pairing | undefined;
  timedOut = false;
  /** When it started waiting (clock ms). */
  readonly since: number;
  /** Resolves when another call took this one (its match may race with a departure). */
  readonly paired: Promise<Pairing>;
  private resolvePaired!: (pairing: Pairing) => void;
  private departure: Promise<LeaveOutcome | undefined> | undefined;
  private timer: TimerHandle | null = null;

  constructor(
    readonly party: QueueParty,
    public queue: QueueInfo,
    public ticket: QueueTicket,
    private readonly host: WaiterHost,
  ) {
    this.paired = new Promise((resolve) => {
      this.resolvePaired = resolve;
    });
    const call = party.ctx.services;
    this.since = call.clock.now();
    if (party.waitLimitMs !== undefined) {
      this.timer = call.clock.setTimeout(() => {
        this.timer = null;
        if (this.pairing) return;
        this.timedOut = true;
        call.interrupt('dequeued');
      }, party.waitLimitMs);
    }
    // Leave the queue as soon as the script stops, not when its pending work next settles.
    // A store failure here surfaces in the stay that awaits the same departure.
    onStop(party, () => {
      if (!this.pairing) this.depart(call.ended ? 'hangup' : 'redirected').catch(() => undefined);
    });
  }

  /** True once the wait loop must stop: matched or timed out. */
  get done(): boolean {
    return this.pairing !== undefined || this.timedOut;
  }

  /** Another call took this one: its wait loop stops and the pairing goes on. */
  deliver(pairing: Pairing): void {
    this.stopTimer();
    this.pairing = pairing;
    this.resolvePaired(pairing);
    this.party.ctx.services.interrupt('dequeued');
  }

  /** The call waits again in `queue` (the store lost it, and it was made anew: see `restore`). */
  moveTo(queue: QueueInfo, ticket: QueueTicket): void {
    this.queue = queue;
    this.ticket = ticket;
  }

  /** Removes the call from the queue once (the first reason wins); undefined if it was matched first. */
  depart(reason: LeaveReason): Promise<LeaveOutcome | undefined> {
    this.stopTimer();
    this.departure ??= this.host.leave(this, reason);
    return this.departure;
  }

  private stopTimer(): void {
    if (this.timer) this.party.ctx.services.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
