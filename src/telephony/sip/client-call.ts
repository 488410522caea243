import { parseNameAddr, parseSipUri } from './address.js';
import { Dialog, hostPort, type LocalAddress, refuseInDialog, responseTo, T1, token } from './dialog.js';
import { sendFinalAnswer } from './final-answer.js';
import { ALLOWED_METHODS, answerOtherInDialog } from './in-dialog.js';
import { authenticatedInvite } from './invite-auth.js';
import { cseqOf, headerOf, type SipHeaders, type SipRequest, type SipResponse } from './message.js';
import { type ReinviteWire, sendReinvite } from './reinvite.js';
import { branchOf } from './server-call.js';
import type { SipPeer } from './transport.js';

/** What the endpoint lends an outgoing call: sending, its own address, and forgetting the call. */
export interface ClientWire extends ReinviteWire {
  readonly local: LocalAddress;
  send(message: SipRequest | SipResponse, peer: SipPeer): void;
  /** Sends a non-INVITE request of ours (CANCEL, BYE) and retransmits it until a final answer. */
  request(request: SipRequest, peer: SipPeer, onFinal: (status: number) => void): void;
  /** The call's dialog is known: in-dialog requests of the callee reach `inDialog`. */
  confirm(call: ClientCall): void;
  /** The call is over: forget it (after a while, for late 2xx retransmissions). */
  forget(call: ClientCall): void;
  /** The call sent its INVITE again under a new branch (with credentials): route its responses too. */
  rebranched(call: ClientCall): void;
}

/** What happens on an outgoing call, as its owner hears it. Nothing is reported after `cancel`. */
export interface ClientCallEvents {
  /** 180 or 183 (with the early SDP, or ''). */
  progress(status: number, sdp: string): void;
  /** The 2xx, already acknowledged, with the callee's SDP answer. */
  answered(sdp: string): void;
  /** A final refusal (486, 404...), 408 when nothing answered within 64*T1. */
  failed(status: number): void;
  /** The callee hung up (BYE) after the answer. */
  ended(): void;
  /** A digit sent as SIP INFO. */
  digit(key: string): void;
  /** A re-offer of the callee (hold): our answer's SDP, or null for 488. */
  reoffer(sdp: string): string | null;
}

/** What an outgoing INVITE says. */
export interface ClientCallRequest {
  /** Request-URI (`sip:alice@127.0.0.1:5070;transport=udp`), URI parameters kept. */
  uri: string;
  /** Where the INVITE goes (resolved, egress-checked). */
  peer: SipPeer;
  /** The From user part (the caller id). */
  fromUser: string;
  /** Our SDP offer. */
  sdp: string;
  /** Extra headers (custom `X-` ones), checked by the caller. */
  headers: SipHeaders;
  /**
   * Whether our in-dialog requests may go to the callee's Contact (or first Route) host; when
   * not, the ACK and BYE go where the INVITE went and `targetRefused` tells the owner.
   */
  allowsHost?: (host: string) => boolean;
  /** Answers a 401/407 digest challenge once (a trunk's account). */
  credentials?: { username: string; password: string };
}

type State = 'calling' | 'proceeding' | 'answered' | 'failed' | 'ended';

/**
 * One outgoing INVITE and the dialog it makes (RFC 3261 sections 13.2 and 17.1.1): the INVITE
 * retransmitted over UDP at T1 doubling until a response (Timer A) and given up after 64*T1
 * (Timer B, 408), ACK of a refusal in the transaction and of each 2xx in the dialog, CANCEL
 * once the callee has sent a provisional answer, BYE either way.
 */
export class ClientCall {
  readonly callId = token(12);
  readonly localTag = token();
  /** The branch of the INVITE under way (a new one after a challenge). */
  branch = `z9hG4bK${token()}`;
  /** Every branch this call's INVITEs used, the current one last. */
  readonly branches: string[] = [this.branch];
  invite: SipRequest;
  /** ACKs of the refusals of earlier branches (a challenge), sent again on their retransmissions. */
  private readonly earlierAcks = new Map<string, SipRequest>();
  private authenticated = false;
  private state: State = 'calling';
  private dialog: Dialog | undefined;
  private retransmit: NodeJS.Timeout | undefined;
  private giveUp: NodeJS.Timeout | undefined;
  /** Canceled by its owner: CANCEL once a provisional answer came; no event afterwards. */
  private canceled = false;
  private cancelSent = false;
  private lastRefusal: SipRequest | undefined;
  /** A re-INVITE of ours is under way (the callee's meanwhile gets 491). */
  private offering = false;
  /** CSeq of the callee's re-INVITE whose 200 waits for its ACK, and how to stop resending it. */
  private awaitingAck: number | undefined;
  private stopAnswer: (() => void) | undefined;
  events: ClientCallEvents | undefined;

  constructor(
    readonly request: ClientCallRequest,
    private readonly wire: ClientWire,
  ) {
    const local = wire.local;
    const transport = request.peer.transport.toUpperCase();
    const to = request.uri.replace(/;.*$/, '');
    this.invite = {
      kind: 'request',
      method: 'INVITE',
      uri: request.uri,
      headers: [
        ['via', `SIP/2.0/${transport} ${hostPort(local)};branch=${this.branch};rport`],
        ['max-forwards', '70'],
        ['from', `<sip:${request.fromUser}@${hostPort(local)}>;tag=${this.localTag}`],
        ['to', `<${to}>`],
        ['call-id', this.callId],
        ['cseq', '1 INVITE'],
        [
          'contact',
          `<sip:rcml@${hostPort(local)}${request.peer.transport === 'tcp' ? ';transport=tcp' : ''}>`,
        ],
        ['allow', ALLOWED_METHODS],
        ['user-agent', 'rcml-engine'],
        ...request.headers,
        ['content-type', 'application/sdp'],
      ],
      body: request.sdp,
    };
  }

  get answered(): boolean {
    return this.state === 'answered';
  }

  /** The callee's answer named a Contact (or Route) host `allowsHost` refused. */
  targetRefused = false;

  get over(): boolean {
    return this.state === 'failed' || this.state === 'ended';
  }

  /** Sends the INVITE; over UDP again at T1, 2*T1, 4*T1... until a response; 408 after 64*T1. */
  start(): void {
    this.wire.send(this.invite, this.request.peer);
    if (this.request.peer.transport === 'udp') {
      let interval = T1;
      const again = () => {
        this.wire.send(this.invite, this.request.peer);
        interval *= 2;
        this.retransmit = setTimeout(again, interval);
      };
      this.retransmit = setTimeout(again, interval);
    }
    this.giveUp = setTimeout(() => this.timedOut(), 64 * T1);
  }

  /** A response to our INVITE (matched by branch). */
  onResponse(response: SipResponse): void {
    const status = response.status;
    const earlier = this.earlierAcks.get(branchOf(response));
    if (earlier) {
      if (status >= 300) this.wire.send(earlier, this.request.peer);
      return;
    }
    if (status < 200) {
      // Proceeding: no more retransmissions, and no Timer B (the engine times the ringing).
      this.stopTimers();
      if (this.state !== 'calling' && this.state !== 'proceeding') return;
      this.state = 'proceeding';
      if (this.canceled) {
        this.sendCancel();
        return;
      }
      if (status > 100) this.events?.progress(status, response.body);
      return;
    }
    this.stopTimers();
    if (status < 300) {
      this.answeredBy(response);
      return;
    }
    // A refusal is acknowledged within the transaction, its retransmissions too.
    this.lastRefusal ??= this.ackOfRefusal(response);
    this.wire.send(this.lastRefusal, this.request.peer);
    if (this.state !== 'calling' && this.state !== 'proceeding') return;
    if ((status === 401 || status === 407) && !this.canceled && this.authenticate(response)) return;
    this.state = 'failed';
    this.wire.forget(this);
    if (!this.canceled) this.events?.failed(status);
  }

  /** Gives up: CANCEL when the callee already answered provisionally, else as soon as it does. */
  cancel(): void {
    if (this.canceled) return;
    this.canceled = true;
    if (this.state === 'proceeding') this.sendCancel();
    else if (this.state === 'answered') this.hangup();
  }

  /** Sends a new offer of ours (hold, resume) once answered; false when it cannot now. */
  sendOffer(sdp: string, done: (status: number) => void): boolean {
    if (this.state !== 'answered' || !this.dialog || this.offering) return false;
    this.offering = true;
    const contact = headerOf(this.invite.headers, 'contact') ?? '';
    sendReinvite(this.dialog, this.wire, contact, sdp, (status) => {
      this.offering = false;
      done(status);
    });
    return true;
  }

  /**
   * Our hang-up: BYE once answered, CANCEL before. `toInvitePeer` sends the BYE where the
   * INVITE went rather than to the callee's Contact (one the egress policy refused).
   */
  hangup(toInvitePeer = false): void {
    if (this.state === 'calling' || this.state === 'proceeding') {
      this.cancel();
      return;
    }
    if (this.state !== 'answered' || !this.dialog) return;
    this.state = 'ended';
    this.stopAnswer?.();
    const { request, peer } = this.dialog.request('BYE', this.wire.local, token());
    this.wire.request(request, toInvitePeer || this.targetRefused ? this.request.peer : peer, () => {});
    this.wire.forget(this);
  }

  /** A request of the callee inside the dialog: BYE, re-INVITE, UPDATE, INFO, OPTIONS. */
  inDialog(request: SipRequest, peer: SipPeer): void {
    const dialog = this.state === 'answered' ? this.dialog : undefined;
    const refusal = refuseInDialog(dialog, request);
    if (refusal || !dialog) {
      if (refusal) this.wire.send(refusal, peer);
      return;
    }
    switch (request.method) {
      case 'BYE':
        this.wire.send(responseTo(request, 200), peer);
        this.stopAnswer?.();
        this.state = 'ended';
        this.wire.forget(this);
        this.events?.ended();
        return;
      case 'INVITE':
      case 'UPDATE': {
        if (request.method === 'INVITE' && (this.offering || this.awaitingAck !== undefined)) {
          this.wire.send(responseTo(request, 491), peer);
          return;
        }
        const answer = request.body ? (this.events?.reoffer(request.body) ?? null) : null;
        if (answer === null) {
          this.wire.send(responseTo(request, 488), peer);
          return;
        }
        const ok = responseTo(request, 200, {
          contact: headerOf(this.invite.headers, 'contact'),
          body: answer,
        });
        if (request.method === 'UPDATE') {
          this.wire.send(ok, peer);
          return;
        }
        // Our 200 to a re-INVITE goes again until its ACK; none in 64*T1: the dialog is dead.
        this.awaitingAck = cseqOf(request).seq;
        this.stopAnswer = sendFinalAnswer(
          () => this.wire.send(ok, peer),
          peer.transport === 'udp',
          () => {
            this.awaitingAck = undefined;
            this.stopAnswer = undefined;
            if (this.state !== 'answered') return;
            this.hangup();
            this.events?.ended();
          },
        );
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

  /** An ACK in our dialog: of our 200 to a re-INVITE, which is no longer sent again. */
  ack(request: SipRequest): void {
    if (this.awaitingAck === undefined || cseqOf(request).seq !== this.awaitingAck) return;
    this.awaitingAck = undefined;
    this.stopAnswer?.();
    this.stopAnswer = undefined;
  }

  /** Stops every timer (the endpoint closes). */
  dispose(): void {
    this.stopTimers();
    this.stopAnswer?.();
  }

  private answeredBy(ok: SipResponse): void {
    const first = this.dialog === undefined;
    if (first) {
      this.dialog = Dialog.asCaller(this.invite, ok, this.localTag, this.request.peer);
      const route = this.dialog.routeSet[0] ? parseNameAddr(this.dialog.routeSet[0])?.uri : undefined;
      const host = parseSipUri(route ?? this.dialog.remoteTarget)?.host ?? '';
      this.targetRefused = this.request.allowsHost?.(host) === false;
    }
    const dialog = this.dialog as Dialog;
    // Every 2xx (retransmissions too) gets its ACK, a new transaction sent to the remote target.
    const { request, peer } = dialog.request('ACK', this.wire.local, token(), cseqOf(this.invite).seq);
    this.wire.send(request, this.targetRefused ? this.request.peer : peer);
    if (!first || (this.state !== 'calling' && this.state !== 'proceeding')) return;
    this.state = 'answered';
    this.wire.confirm(this);
    if (this.canceled) {
      // The answer crossed our CANCEL: the call was set up, and is torn down at once.
      this.hangup();
      return;
    }
    this.events?.answered(ok.body);
  }

  private sendCancel(): void {
    if (this.cancelSent) return;
    this.cancelSent = true;
    const cancel: SipRequest = {
      kind: 'request',
      method: 'CANCEL',
      uri: this.invite.uri,
      headers: [
        ['via', headerOf(this.invite.headers, 'via') ?? ''],
        ['max-forwards', '70'],
        ['from', headerOf(this.invite.headers, 'from') ?? ''],
        ['to', headerOf(this.invite.headers, 'to') ?? ''],
        ['call-id', this.callId],
        ['cseq', `${cseqOf(this.invite).seq} CANCEL`],
      ],
      body: '',
    };
    this.wire.request(cancel, this.request.peer, () => {});
    // A callee that never answers the INVITE after our CANCEL: Timer B still ends it.
    this.giveUp = setTimeout(() => this.timedOut(), 64 * T1);
  }

  /**
   * Sends the INVITE again with digest credentials answering `challenge` (RFC 3261 section
   * 22.2): a new transaction (branch), the next CSeq, same Call-ID and From tag. Once only: a
   * second challenge is a refusal. False when there is nothing to answer it with.
   */
  private authenticate(challenge: SipResponse): boolean {
    const credentials = this.request.credentials;
    if (!credentials || this.authenticated) return false;
    const branch = `z9hG4bK${token()}`;
    const invite = authenticatedInvite(this.invite, challenge, credentials, branch);
    if (!invite) return false;
    this.authenticated = true;
    this.earlierAcks.set(this.branch, this.lastRefusal as SipRequest);
    this.lastRefusal = undefined;
    this.branch = branch;
    this.branches.push(branch);
    this.invite = invite;
    this.state = 'calling';
    this.wire.rebranched(this);
    this.start();
    return true;
  }

  private ackOfRefusal(response: SipResponse): SipRequest {
    return {
      kind: 'request',
      method: 'ACK',
      uri: this.invite.uri,
      headers: [
        ['via', headerOf(this.invite.headers, 'via') ?? ''],
        ['max-forwards', '70'],
        ['from', headerOf(this.invite.headers, 'from') ?? ''],
        ['to', headerOf(response.headers, 'to') ?? ''],
        ['call-id', this.callId],
        ['cseq', `${cseqOf(this.invite).seq} ACK`],
      ],
      body: '',
    };
  }

  private timedOut(): void {
    this.stopTimers();
    if (this.state !== 'calling' && this.state !== 'proceeding') return;
    this.state = 'failed';
    this.wire.forget(this);
    if (!this.canceled) this.events?.failed(408);
  }

  private stopTimers(): void {
    clearTimeout(this.retransmit);
    clearTimeout(this.giveUp);
    this.retransmit = undefined;
    this.giveUp = undefined;
  }
}
