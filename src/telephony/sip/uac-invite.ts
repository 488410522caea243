import { Dialog, type DialogStack } from './dialog.js';
import { ALLOWED_METHODS } from './in-dialog.js';
import { authenticatedInvite } from './invite-auth.js';
import { cseqOf, type SipHeaders, type SipRequest, type SipResponse } from './message.js';
import { cancelOf } from './requests.js';
import { hostPort, token } from './responses.js';
import type { InviteClientTransaction } from './transactions/invite-client.js';
import type { SipPeer } from './transport.js';

/**
 * What happens on an outgoing call, as its owner hears it; nothing is reported after `cancel`.
 * Once answered, the dialog's own events go to the `user` the owner gives `dialog`.
 */
export interface UacInviteEvents {
  /** 180 or 183 (with the early SDP, or ''). */
  progress(status: number, sdp: string): void;
  /** The 2xx, already acknowledged, with the callee's SDP answer. */
  answered(sdp: string): void;
  /** A final refusal (486, 404...), 408 when nothing answered within 64*T1. */
  failed(status: number): void;
}

/** What an outgoing INVITE says. */
export interface UacInviteRequest {
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

type State = 'calling' | 'proceeding' | 'answered' | 'failed';

/**
 * The UAC side of an outgoing INVITE (RFC 3261 section 13.2): the INVITE in its client
 * transaction (which retransmits it and acknowledges refusals), a digest challenge answered
 * once in a new transaction, CANCEL once the callee has sent a provisional answer, the ACK of
 * each 2xx, and the dialog once answered.
 */
export class UacInvite {
  readonly callId = token(12);
  readonly localTag = token();
  /** The branch of the INVITE under way (a new one after a challenge). */
  branch = `z9hG4bK${token()}`;
  invite: SipRequest;
  private authenticated = false;
  private state: State = 'calling';
  private current: Dialog | undefined;
  private transaction: InviteClientTransaction | undefined;
  /** Canceled by its owner: CANCEL once a provisional answer came; no event afterwards. */
  private canceled = false;
  private cancelSent = false;
  /** The callee's answer named a Contact (or Route) host `allowsHost` refused. */
  targetRefused = false;
  events: UacInviteEvents | undefined;

  constructor(
    readonly request: UacInviteRequest,
    private readonly stack: DialogStack,
  ) {
    const local = stack.local;
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
    return this.state === 'answered' && !this.current?.ended;
  }

  get over(): boolean {
    return this.state === 'failed' || this.current?.ended === true;
  }

  /** The call's dialog once answered. */
  get dialog(): Dialog | undefined {
    return this.current;
  }

  /** Sends the INVITE (its transaction retransmits it and gives up with 408). */
  start(): void {
    this.transaction = this.stack.transactions.sendInvite(this.invite, this.request.peer, {
      response: (response) => this.onResponse(response),
      timeout: () => this.timedOut(),
    });
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
    return this.current?.sendOffer(sdp, done) ?? false;
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
    const dialog = this.current;
    if (!dialog) return;
    if (toInvitePeer) dialog.pinnedPeer = this.request.peer;
    dialog.bye();
  }

  private onResponse(response: SipResponse): void {
    const status = response.status;
    if (status < 200) {
      if (this.state !== 'calling' && this.state !== 'proceeding') return;
      this.state = 'proceeding';
      if (this.canceled) this.sendCancel();
      else if (status > 100) this.events?.progress(status, response.body);
      return;
    }
    if (status < 300) {
      this.answeredBy(response);
      return;
    }
    // The transaction has acknowledged the refusal.
    if (this.state !== 'calling' && this.state !== 'proceeding') return;
    if ((status === 401 || status === 407) && !this.canceled && this.authenticate(response)) return;
    this.state = 'failed';
    if (!this.canceled) this.events?.failed(status);
  }

  private answeredBy(ok: SipResponse): void {
    const first = this.current === undefined;
    if (first) {
      const dialog = Dialog.asUac(this.invite, ok, this.localTag, this.request.peer, this.stack);
      this.targetRefused = this.request.allowsHost?.(dialog.nextHop) === false;
      if (this.targetRefused) dialog.pinnedPeer = this.request.peer;
      this.current = dialog;
    }
    const dialog = this.current as Dialog;
    // Every 2xx (retransmissions too) gets its ACK, a new transaction sent to the remote target.
    dialog.acknowledge(cseqOf(this.invite).seq);
    if (!first || (this.state !== 'calling' && this.state !== 'proceeding')) return;
    this.state = 'answered';
    this.stack.register(dialog);
    if (this.canceled) {
      // The answer crossed our CANCEL: the call was set up, and is torn down at once.
      dialog.bye();
      return;
    }
    this.events?.answered(ok.body);
  }

  private sendCancel(): void {
    if (this.cancelSent) return;
    this.cancelSent = true;
    this.transaction?.cancelled();
    this.stack.transactions.sendRequest(cancelOf(this.invite), this.request.peer, {
      response: () => {},
      timeout: () => {},
    });
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
    this.branch = branch;
    this.invite = invite;
    this.state = 'calling';
    this.start();
    return true;
  }

  private timedOut(): void {
    if (this.state !== 'calling' && this.state !== 'proceeding') return;
    this.state = 'failed';
    if (!this.canceled) this.events?.failed(408);
  }
}
