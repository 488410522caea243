import type { SipRequest, SipResponse } from '../message.js';
import { ackOfRefusal } from '../requests.js';
import { T1 } from '../timers.js';
import { TimedTransaction, type TransactionIo } from './timed.js';

/** What the owner of an outgoing INVITE hears from its transaction. */
export interface InviteClientUser {
  /**
   * A provisional answer, every 2xx (its retransmissions too: each one needs the owner's ACK, a
   * request of the dialog), or the one final refusal, already acknowledged.
   */
  response(response: SipResponse): void;
  /** No answer: Timer B (64*T1 in Calling), or no final answer within 64*T1 of our CANCEL. */
  timeout(): void;
}

type State = 'calling' | 'proceeding' | 'accepted' | 'completed';

/**
 * The INVITE client transaction (RFC 3261 section 17.1.1, with RFC 6026's Accepted state):
 * Timer A retransmits the INVITE over UDP at T1 doubling until a response; Timer B gives up in
 * Calling after 64*T1; a refusal is acknowledged here, again for each retransmission, until
 * Timer D (32 s over UDP); after a 2xx, Timer M (64*T1) keeps the transaction to hand the
 * owner the 2xx's retransmissions.
 */
export class InviteClientTransaction extends TimedTransaction<State> {
  private ack: SipRequest | undefined;

  constructor(
    readonly request: SipRequest,
    io: TransactionIo,
    private readonly user: InviteClientUser,
  ) {
    super(io, 'calling');
  }

  start(): void {
    this.io.send(this.request);
    if (!this.io.reliable) this.retransmitAfter(T1);
    this.arm('B', 64 * T1, () => this.timeout());
  }

  receive(response: SipResponse): void {
    const status = response.status;
    const pending = this.state === 'calling' || this.state === 'proceeding';
    if (status < 200) {
      if (!pending) return;
      // Proceeding: no retransmissions, no Timer B (the owner times the ringing).
      this.state = 'proceeding';
      this.disarm('A', 'B');
      this.user.response(response);
      return;
    }
    if (status < 300) {
      if (pending) {
        this.state = 'accepted';
        this.disarm('A', 'B');
        this.arm('M', 64 * T1, () => this.terminate());
      }
      if (this.state === 'accepted') this.user.response(response);
      return;
    }
    if (this.state === 'completed') {
      // A retransmitted refusal: our ACK was lost.
      if (this.ack) this.io.send(this.ack);
      return;
    }
    if (!pending) return;
    this.state = 'completed';
    this.disarm('A', 'B');
    this.ack = ackOfRefusal(this.request, response);
    this.io.send(this.ack);
    this.linger('D', 32_000);
    this.user.response(response);
  }

  /**
   * Our CANCEL of this INVITE left: a callee that never sends a final answer after it is given
   * up 64*T1 later (RFC 3261 section 9.1).
   */
  cancelled(): void {
    if (this.state === 'calling' || this.state === 'proceeding') this.arm('B', 64 * T1, () => this.timeout());
  }

  private retransmitAfter(interval: number): void {
    this.arm('A', interval, () => {
      if (this.state !== 'calling') return;
      this.io.send(this.request);
      this.retransmitAfter(interval * 2);
    });
  }

  private timeout(): void {
    if (this.state !== 'calling' && this.state !== 'proceeding') return;
    this.terminate();
    this.user.timeout();
  }
}
