import type { SipRequest, SipResponse } from '../message.js';
import { T1, T2, T4 } from '../timers.js';
import { TimedTransaction, type TransactionIo } from './timed.js';

/** What the owner of an outgoing BYE, CANCEL, INFO... hears from its transaction. */
export interface NonInviteClientUser {
  /** The final answer, once (provisional answers are not passed on). */
  response(response: SipResponse): void;
  /** Timer F: no final answer within 64*T1 (the owner treats it as a 408). */
  timeout(): void;
}

type State = 'trying' | 'proceeding' | 'completed';

/**
 * The non-INVITE client transaction (RFC 3261 section 17.1.2): Timer E retransmits over UDP at
 * T1 doubling to T2 (at T2 once a provisional answer came), Timer F gives up after 64*T1, and
 * Timer K (T4 over UDP) absorbs retransmitted final answers.
 */
export class NonInviteClientTransaction extends TimedTransaction<State> {
  constructor(
    readonly request: SipRequest,
    io: TransactionIo,
    private readonly user: NonInviteClientUser,
  ) {
    super(io, 'trying');
  }

  start(): void {
    this.io.send(this.request);
    if (!this.io.reliable) this.retransmitAfter(T1);
    this.arm('F', 64 * T1, () => {
      this.terminate();
      this.user.timeout();
    });
  }

  receive(response: SipResponse): void {
    if (this.state === 'completed' || this.state === 'terminated') return;
    if (response.status < 200) {
      this.state = 'proceeding';
      return;
    }
    this.state = 'completed';
    this.disarm('E', 'F');
    this.linger('K', T4);
    this.user.response(response);
  }

  private retransmitAfter(interval: number): void {
    this.arm('E', interval, () => {
      this.io.send(this.request);
      this.retransmitAfter(this.state === 'proceeding' ? T2 : Math.min(interval * 2, T2));
    });
  }
}
