import type { SipMessage } from '../message.js';
import type { SipTimers } from '../timers.js';

/** What the transaction layer lends each transaction: sending to its peer, time, and its end. */
export interface TransactionIo {
  readonly timers: SipTimers;
  /** TCP: nothing is retransmitted, and the wait states last no time (RFC 3261 section 17). */
  readonly reliable: boolean;
  send(message: SipMessage): void;
  /** The transaction is over: the layer forgets it. */
  terminated(transaction: object): void;
  /** The transaction keeps an answer of `bytes` to replay (the layer bounds what all keep). */
  keeps?(transaction: { terminate(): void }, bytes: number): void;
}

/** The RFC 3261 timer names the transactions run (RFC 6026 adds L and M). */
export type TimerName = 'A' | 'B' | 'D' | 'E' | 'F' | 'K' | 'G' | 'H' | 'I' | 'J' | 'L' | 'M' | '2xx';

/**
 * What every transaction shares: named timers on the injected clock, all cleared when it ends,
 * so that no timer outlives its transaction.
 */
export abstract class TimedTransaction<State extends string> {
  private readonly running = new Map<TimerName, object>();

  protected constructor(
    protected readonly io: TransactionIo,
    protected state: State | 'terminated',
  ) {}

  /** The state machine's current state (RFC 3261 figures 5 to 8, RFC 6026 figures 3 and 5). */
  get current(): State | 'terminated' {
    return this.state;
  }

  get terminated(): boolean {
    return this.state === 'terminated';
  }

  /** The timers running now, by name (for tests and diagnostics). */
  get timersRunning(): TimerName[] {
    return [...this.running.keys()];
  }

  protected arm(name: TimerName, ms: number, fire: () => void): void {
    this.disarm(name);
    const handle = this.io.timers.setTimeout(() => {
      this.running.delete(name);
      fire();
    }, ms);
    this.running.set(name, handle);
  }

  protected disarm(...names: TimerName[]): void {
    for (const name of names) {
      const handle = this.running.get(name);
      if (handle === undefined) continue;
      this.io.timers.clearTimeout(handle);
      this.running.delete(name);
    }
  }

  /** A wait state that lasts `ms` over UDP and no time over TCP, then the end. */
  protected linger(name: TimerName, ms: number): void {
    if (this.io.reliable || ms <= 0) this.terminate();
    else this.arm(name, ms, () => this.terminate());
  }

  /** Ends the transaction: every timer stopped, the layer told. */
  terminate(): void {
    if (this.state === 'terminated') return;
    for (const handle of this.running.values()) this.io.timers.clearTimeout(handle);
    this.running.clear();
    this.state = 'terminated';
    this.io.terminated(this);
  }
}
