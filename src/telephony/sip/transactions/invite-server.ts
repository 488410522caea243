import type { SipRequest, SipResponse } from '../message.js';
import { T1, T2, T4 } from '../timers.js';
import type { SipPeer } from '../transport.js';
import { TimedTransaction, type TransactionIo } from './timed.js';

type State = 'proceeding' | 'accepted' | 'completed' | 'confirmed';

/**
 * The INVITE server transaction (RFC 3261 section 17.2.1, with RFC 6026's Accepted state). A
 * retransmitted INVITE gets the last provisional answer again (the final one in Completed). A
 * refusal goes again over UDP at T1 doubling to T2 (Timer G) until its ACK, which Timer I
 * (T4) then absorbs; Timer H gives up on the ACK after 64*T1. A 2xx goes again at T1 doubling
 * to T2 until its ACK (RFC 3261 section 13.3.1.4; the ACK of a 2xx is a request of the dialog,
 * which calls `acknowledged`), and Timer L (64*T1) ends the Accepted state. One module owns
 * every retransmission of the stack, so the 2xx's are here rather than in the dialog.
 */
export class InviteServerTransaction extends TimedTransaction<State> {
  private last: SipResponse | undefined;
  private acked = false;
  /** No ACK came for our final answer: Timer H after a refusal, Timer L after a 2xx. */
  onNoAck: (() => void) | undefined;

  constructor(
    readonly request: SipRequest,
    readonly peer: SipPeer,
    io: TransactionIo,
  ) {
    super(io, 'proceeding');
  }

  /** Whether a final answer has gone (the INVITE can no longer be canceled). */
  get answered(): boolean {
    return this.state !== 'proceeding';
  }

  /** Sends our answer: provisional answers while Proceeding, then one final answer. */
  respond(response: SipResponse): void {
    if (this.state !== 'proceeding') return;
    this.last = response;
    this.io.send(response);
    if (response.status < 200) return;
    if (response.status < 300) {
      this.state = 'accepted';
      if (!this.io.reliable) this.retransmitAfter('2xx', T1, response);
      this.arm('L', 64 * T1, () => {
        const acked = this.acked;
        this.terminate();
        if (!acked) this.onNoAck?.();
      });
      return;
    }
    this.state = 'completed';
    if (!this.io.reliable) this.retransmitAfter('G', T1, response);
    this.arm('H', 64 * T1, () => {
      this.terminate();
      this.onNoAck?.();
    });
  }

  /** A retransmission of the INVITE, or the ACK of our refusal (same branch). */
  receive(request: SipRequest): void {
    if (request.method === 'ACK') {
      if (this.state === 'completed') {
        this.state = 'confirmed';
        this.disarm('G', 'H');
        this.linger('I', T4);
      } else if (this.state === 'accepted') this.acknowledged();
      return;
    }
    // Accepted: the 2xx is being retransmitted already; a retransmitted INVITE is absorbed.
    if ((this.state === 'proceeding' || this.state === 'completed') && this.last) this.io.send(this.last);
  }

  /** The 2xx's ACK came (matched by its dialog): it is not sent again. */
  acknowledged(): void {
    if (this.state !== 'accepted') return;
    this.acked = true;
    this.disarm('2xx');
  }

  private retransmitAfter(name: 'G' | '2xx', interval: number, response: SipResponse): void {
    this.arm(name, interval, () => {
      this.io.send(response);
      this.retransmitAfter(name, Math.min(interval * 2, T2), response);
    });
  }
}
