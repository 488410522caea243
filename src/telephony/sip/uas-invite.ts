import { parseNameAddr, parseSipUri } from './address.js';
import { Dialog, type DialogStack, type DialogUser } from './dialog.js';
import { ALLOWED_METHODS } from './in-dialog.js';
import { headerOf, type SipHeaders, type SipRequest } from './message.js';
import { hostPort, responseTo, token } from './responses.js';
import type { Negotiated } from './sdp.js';
import type { InviteServerTransaction } from './transactions/invite-server.js';
import type { NonInviteServerTransaction } from './transactions/non-invite-server.js';
import type { SipPeer } from './transport.js';

/** What happens on an inbound call, as its owner (the SIP call) hears it. */
export interface UasInviteEvents extends DialogUser {
  /** The caller canceled before the answer (a 487 was sent). */
  canceled(): void;
}

type State = 'proceeding' | 'answered' | 'rejected';

/**
 * The UAS side of an inbound INVITE (RFC 3261 section 13.3): provisional answers, then one
 * final answer in the INVITE server transaction (which retransmits it), a CANCEL before it,
 * and, once answered, the dialog that carries the call.
 */
export class UasInvite {
  readonly callId: string;
  readonly localTag = token();
  readonly invite: SipRequest;
  readonly peer: SipPeer;
  /** The Request-URI's user part (the number called). */
  readonly calledUser: string;
  /** The caller's user part (From). */
  readonly callerUser: string;
  private state: State = 'proceeding';
  private current: Dialog | undefined;
  events: UasInviteEvents | undefined;
  /** Called once, when the call leaves set-up: acknowledged, refused, canceled or ended. */
  onSettled: (() => void) | undefined;

  constructor(
    private readonly transaction: InviteServerTransaction,
    readonly negotiated: Negotiated,
    private readonly stack: DialogStack,
  ) {
    this.invite = transaction.request;
    this.peer = transaction.peer;
    this.callId = headerOf(this.invite.headers, 'call-id') ?? '';
    this.calledUser = parseSipUri(this.invite.uri)?.user ?? '';
    const from = parseNameAddr(headerOf(this.invite.headers, 'from') ?? '');
    this.callerUser = (from && parseSipUri(from.uri)?.user) ?? '';
  }

  get answered(): boolean {
    return this.state === 'answered' && !this.current?.ended;
  }

  get over(): boolean {
    return this.state === 'rejected' || this.current?.ended === true;
  }

  /** The call's dialog once answered. */
  get dialog(): Dialog | undefined {
    return this.current;
  }

  private contact(): string {
    const transport = this.peer.transport === 'tcp' ? ';transport=tcp' : '';
    return `<sip:rcml@${hostPort(this.stack.local)}${transport}>`;
  }

  /** 100 Trying, sent as soon as the INVITE is read. */
  trying(): void {
    this.transaction.respond(responseTo(this.invite, 100));
  }

  /** 180 Ringing while the first document loads. */
  ringing(): void {
    if (this.state !== 'proceeding') return;
    this.transaction.respond(responseTo(this.invite, 180, { toTag: this.localTag, contact: this.contact() }));
  }

  /** 200 OK with our SDP answer; retransmitted until the ACK comes. */
  answer(sdp: string): void {
    if (this.state !== 'proceeding') return;
    this.state = 'answered';
    const dialog = Dialog.asUas(this.invite, this.localTag, this.peer, this.contact(), this.stack);
    dialog.user = this.events;
    dialog.onSettled = () => this.settle();
    this.current = dialog;
    this.stack.register(dialog);
    this.transaction.respond(
      responseTo(this.invite, 200, {
        toTag: this.localTag,
        contact: dialog.contact,
        body: sdp,
        headers: [['allow', ALLOWED_METHODS]],
      }),
    );
    dialog.awaitAck(this.transaction);
  }

  /**
   * A final refusal (404, 486, 603, a 407 challenge...) before the answer, retransmitted until
   * its ACK; `extra` gives its reason phrase and headers (`Proxy-Authenticate`).
   */
  reject(status: number, extra: { reason?: string; headers?: SipHeaders } = {}): void {
    if (this.state !== 'proceeding') return;
    this.state = 'rejected';
    this.transaction.respond(responseTo(this.invite, status, { ...extra, toTag: this.localTag }));
    this.settle();
  }

  /** Our hang-up: BYE once answered (when the ACK comes, if it has not yet), 480 before. */
  hangup(): void {
    if (this.state === 'proceeding') this.reject(480);
    else this.current?.bye();
  }

  /** Sends a new offer of ours in the dialog; false when it cannot now (see `Dialog.sendOffer`). */
  sendOffer(sdp: string, done: (status: number) => void): boolean {
    return this.current?.sendOffer(sdp, done) ?? false;
  }

  /** A CANCEL of the INVITE: 200 to it, and 487 to the INVITE unless answered already. */
  cancel(cancel: NonInviteServerTransaction): void {
    cancel.respond(responseTo(cancel.request, 200, { toTag: this.localTag }));
    if (this.state !== 'proceeding') return;
    this.state = 'rejected';
    this.transaction.respond(responseTo(this.invite, 487, { toTag: this.localTag }));
    this.settle();
    this.events?.canceled();
  }

  private settle(): void {
    const settled = this.onSettled;
    this.onSettled = undefined;
    settled?.();
  }
}
