import type { SipRequest, SipResponse } from '../message.js';
import { T1 } from '../timers.js';
import type { SipPeer } from '../transport.js';
import { TimedTransaction, type TransactionIo } from './timed.js';

type State = 'trying' | 'proceeding' | 'completed';

/**
 * The non-INVITE server transaction (RFC 3261 section 17.2.2): a retransmitted request is
 * absorbed while we think, gets the provisional answer again while Proceeding and the final
 * one in Completed, which Timer J (64*T1 over UDP) keeps for late retransmissions.
 */
export class NonInviteServerTransaction extends TimedTransaction<State> {
  private last: SipResponse | undefined;

  constructor(
    readonly request: SipRequest,
    readonly peer: SipPeer,
    io: TransactionIo,
  ) {
    super(io, 'trying');
  }

  get answered(): boolean {
    return this.state === 'completed' || this.state === 'terminated';
  }

  respond(response: SipResponse): void {
    if (this.state !== 'trying' && this.state !== 'proceeding') return;
    this.last = response;
    this.io.send(response);
    if (response.status < 200) {
      this.state = 'proceeding';
      return;
    }
    this.state = 'completed';
    this.linger('J', 64 * T1);
    if (this.state === 'completed') this.io.keeps?.(this, sizeOf(response));
  }

  /** A retransmission of the request. */
  receive(_request: SipRequest): void {
    if ((this.state === 'proceeding' || this.state === 'completed') && this.last) this.io.send(this.last);
  }
}

/** About how many bytes a response holds (its header values and body). */
function sizeOf(response: SipResponse): number {
  let bytes = response.body.length + 32;
  for (const [name, value] of response.headers) bytes += name.length + value.length + 4;
  return bytes;
}
