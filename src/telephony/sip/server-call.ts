import { parseNameAddr, parseSipUri } from './address.js';
import { Dialog, hostPort, type LocalAddress, refuseInDialog, responseTo, token } from './dialog.js';
import { sendFinalAnswer } from './final-answer.js';
import { ALLOWED_METHODS, answerOtherInDialog } from './in-dialog.js';
import { cseqOf, headerOf, type SipHeaders, type SipRequest, type SipResponse } from './message.js';
import { type ReinviteWire, sendReinvite } from './reinvite.js';
import type { Negotiated } from './sdp.js';
import type { SipPeer } from './transport.js';

/** What the endpoint lends a call: sending, and its own address. */
export interface CallWire extends ReinviteWire {
  readonly local: LocalAddress;
  send(message: SipRequest | SipResponse, peer: SipPeer): void;
  /** Sends a request of ours and retransmits it until a final answer (non-INVITE client transaction). */
  request(request: SipRequest, peer: SipPeer, onFinal: (status: number) => void): void;
  /** Forgets the call (its dialog is over). */
  forget(call: ServerCall): void;
}

/** What happens on an inbound call, as its owner (the SIP call line) hears it. */
export interface ServerCallEvents {
  /** The caller canceled before the answer (a 487 was sent). */
  canceled(): void;
  /** The caller hung up (BYE answered 200), or the dialog died (no ACK). */
  ended(by: 'bye' | 'no-ack'): void;
  /** A new offer in the dialog (re-INVITE or UPDATE, e.g. hold); returns our answer's SDP, or null for 488. */
  reoffer(sdp: string): string | null;
  /** A re-INVITE without SDP asks for our offer (RFC 3261 section 14.2): our current session. */
  offer(): string | null;
  /** A digit sent as SIP INFO (`application/dtmf-relay` or `application/dtmf`). */
  digit(key: string): void;
  /** The caller acknowledged our answer: the dialog takes offers of ours from now on. */
  confirmed?(): void;
}

type State = 'proceeding' | 'answered' | 'confirmed' | 'rejected' | 'ended';

/**
 * One inbound INVITE and the dialog it makes (RFC 3261 sections 13.3 and 17.2.1): provisional
 * answers, the final one retransmitted (T1 doubling to T2) until its ACK, CANCEL, BYE,
 * re-INVITE and INFO. The transaction user's duties live here; the endpoint routes messages.
 */
export class ServerCall {
  readonly callId: string;
  readonly localTag = token();
  readonly branch: string;
  /** The Request-URI's user part (the number called), without a leading `+` kept apart. */
  readonly calledUser: string;
  /** The caller's user part (From). */
  readonly callerUser: string;
  private state: State = 'proceeding';
  private dialog: Dialog | undefined;
  private lastResponse: SipResponse | undefined;
  /** Stops retransmitting the final answer under way. */
  private stopFinal: (() => void) | undefined;
  /** CSeq of the INVITE (or re-INVITE) whose 2xx waits for an ACK. */
  private awaitingAck: number | undefined;
  private byeWhenConfirmed = false;
  /** A re-INVITE of ours is under way (one at a time; the caller's meanwhile gets 491). */
  private offering = false;
  events: ServerCallEvents | undefined;

  constructor(
    readonly invite: SipRequest,
    readonly peer: SipPeer,
    readonly negotiated: Negotiated,
    private readonly wire: CallWire,
  ) {
    this.callId = headerOf(invite.headers, 'call-id') ?? '';
    this.branch = branchOf(invite);
    this.calledUser = parseSipUri(invite.uri)?.user ?? '';
    const from = parseNameAddr(headerOf(invite.headers, 'from') ?? '');
    this.callerUser = (from && parseSipUri(from.uri)?.user) ?? '';
  }

  get answered(): boolean {
    return this.state === 'answered' || this.state === 'confirmed';
  }

  get over(): boolean {
    return this.state === 'ended' || this.state === 'rejected';
  }

  private contact(): string {
    const transport = this.peer.transport === 'tcp' ? ';transport=tcp' : '';
    return `<sip:rcml@${hostPort(this.wire.local)}${transport}>`;
  }

  /** 100 Trying, sent as soon as the INVITE is read. */
  trying(): void {
    this.respond(responseTo(this.invite, 100));
  }

  /** 180 Ringing while the first document loads. */
  ringing(): void {
    if (this.state !== 'proceeding') return;
    this.respond(responseTo(this.invite, 180, { toTag: this.localTag, contact: this.contact() }));
  }

  /** 200 OK with our SDP answer; retransmitted until the ACK comes. */
  answer(sdp: string): void {
    if (this.state !== 'proceeding') return;
    this.state = 'answered';
    this.dialog = Dialog.asCallee(this.invite, this.localTag, this.peer);
    const ok = responseTo(this.invite, 200, {
      toTag: this.localTag,
      contact: this.contact(),
      body: sdp,
      headers: [['allow', ALLOWED_METHODS]],
    });
    this.awaitingAck = cseqOf(this.invite).seq;
    this.sendFinal(ok, () => {
      // No ACK within 64*T1: the dialog is dead (RFC 3261 section 13.3.1.4).
      this.state = 'ended';
      this.wire.forget(this);
      this.events?.ended('no-ack');
    });
  }

  /**
   * A final refusal (404, 486, 603, a 407 challenge...) before the answer, retransmitted until
   * its ACK; `extra` gives its reason phrase and headers (`Proxy-Authenticate`).
   */
  reject(status: number, extra: { reason?: string; headers?: SipHeaders } = {}): void {
    if (this.state !== 'proceeding') return;
    this.state = 'rejected';
    this.sendFinal(responseTo(this.invite, status, { ...extra, toTag: this.localTag }), () =>
      this.wire.forget(this),
    );
  }

  /** Our hang-up: BYE once the answer is confirmed (sent when the ACK arrives, if it has not yet). */
  hangup(): void {
    if (this.state === 'proceeding') {
      this.reject(480);
      return;
    }
    if (this.state === 'answered') {
      this.byeWhenConfirmed = true;
      return;
    }
    if (this.state !== 'confirmed' || !this.dialog) return;
    this.state = 'ended';
    const { request, peer } = this.dialog.request('BYE', this.wire.local, token());
    this.wire.request(request, peer, () => {});
    this.wire.forget(this);
  }

  /**
   * Sends a new offer of ours (hold: `sendonly`, resume: `sendrecv`) in the confirmed dialog;
   * false when it cannot now (not confirmed, or one under way). `done` gets the final status.
   */
  sendOffer(sdp: string, done: (status: number) => void): boolean {
    if (this.state !== 'confirmed' || !this.dialog || this.offering) return false;
    this.offering = true;
    sendReinvite(this.dialog, this.wire, this.contact(), sdp, (status) => {
      this.offering = false;
      done(status);
    });
    return true;
  }

  /** The endpoint hands on a retransmitted INVITE: the last answer goes again. */
  retransmitted(): void {
    if (this.lastResponse) this.wire.send(this.lastResponse, this.peer);
  }

  /** CANCEL of the INVITE (same branch). */
  cancel(request: SipRequest, peer: SipPeer): void {
    this.wire.send(responseTo(request, 200, { toTag: this.localTag }), peer);
    if (this.state !== 'proceeding') return;
    this.state = 'rejected';
    this.sendFinal(responseTo(this.invite, 487, { toTag: this.localTag }), () => this.wire.forget(this));
    this.events?.canceled();
  }

  /** ACK: of our refusal (ends the transaction) or of a 2xx (confirms the dialog). */
  ack(request: SipRequest): void {
    const seq = cseqOf(request).seq;
    if (this.state === 'rejected') {
      this.stopRetransmitting();
      this.wire.forget(this);
      return;
    }
    if (this.awaitingAck !== seq) return;
    this.awaitingAck = undefined;
    this.stopRetransmitting();
    if (this.state === 'answered') this.state = 'confirmed';
    if (this.byeWhenConfirmed) this.hangup();
    else if (this.state === 'confirmed') this.events?.confirmed?.();
  }

  /** A request inside the dialog (after our answer): BYE, re-INVITE, UPDATE, INFO, OPTIONS. */
  inDialog(request: SipRequest, peer: SipPeer): void {
    const dialog = this.dialog;
    const refusal = refuseInDialog(dialog, request);
    if (refusal || !dialog) {
      if (refusal) this.wire.send(refusal, peer);
      return;
    }
    const contact = parseNameAddr(headerOf(request.headers, 'contact') ?? '');
    if (contact && (request.method === 'INVITE' || request.method === 'UPDATE'))
      dialog.remoteTarget = contact.uri;
    switch (request.method) {
      case 'BYE': {
        this.wire.send(responseTo(request, 200), peer);
        if (this.state === 'ended') return;
        this.state = 'ended';
        this.stopRetransmitting();
        this.wire.forget(this);
        this.events?.ended('bye');
        return;
      }
      case 'INVITE':
      case 'UPDATE': {
        if (this.state === 'ended') {
          this.wire.send(responseTo(request, 481), peer);
          return;
        }
        if (request.method === 'INVITE' && (this.awaitingAck !== undefined || this.offering)) {
          this.wire.send(responseTo(request, 491), peer);
          return;
        }
        // A re-INVITE without SDP (a refresh, a late offer) gets our current session as an offer;
        // an UPDATE without SDP (a session-timer refresh) gets no SDP.
        const answer = request.body
          ? (this.events?.reoffer(request.body) ?? null)
          : request.method === 'INVITE'
            ? this.events?.offer()
            : undefined;
        if (answer === null) {
          this.wire.send(responseTo(request, 488), peer);
          return;
        }
        const ok = responseTo(request, 200, { contact: this.contact(), body: answer });
        if (request.method === 'UPDATE') {
          this.wire.send(ok, peer);
          return;
        }
        this.awaitingAck = cseqOf(request).seq;
        this.sendFinal(ok, () => {
          this.awaitingAck = undefined;
        });
        return;
      }
      default:
        answerOtherInDialog(
          request,
          (response) => this.wire.send(response, peer),
          (key) => this.events?.digit(key),
        );
    }
  }

  private respond(response: SipResponse): void {
    this.lastResponse = response;
    this.wire.send(response, this.peer);
  }

  /**
   * Sends a final answer and, over UDP, sends it again at T1, 2*T1, ... capped at T2 until
   * `stopRetransmitting` (the ACK); after 64*T1 without it, `timedOut`.
   */
  private sendFinal(response: SipResponse, timedOut: () => void): void {
    this.stopRetransmitting();
    this.lastResponse = response;
    this.stopFinal = sendFinalAnswer(
      () => this.wire.send(response, this.peer),
      this.peer.transport === 'udp',
      () => {
        this.stopFinal = undefined;
        timedOut();
      },
    );
  }

  private stopRetransmitting(): void {
    this.stopFinal?.();
    this.stopFinal = undefined;
  }

  /** Stops every timer (the endpoint closes). */
  dispose(): void {
    this.stopRetransmitting();
  }
}

/** The branch of a request's top Via. */
export function branchOf(request: SipRequest | SipResponse): string {
  const via = headerOf(request.headers, 'via') ?? '';
  return /;\s*branch=([^;\s,]+)/i.exec(via)?.[1] ?? '';
}
