import { formatNameAddr, parseNameAddr, parseSipUri } from './address.js';
import { isPrivateAddress } from './address-scope.js';
import { answerOtherInDialog } from './in-dialog.js';
import {
  cseqOf,
  headerOf,
  headersOf,
  type SipHeaders,
  type SipRequest,
  type SipResponse,
} from './message.js';
import { hostPort, type LocalAddress, responseTo, token } from './responses.js';
import type { InviteServerTransaction } from './transactions/invite-server.js';
import type { ServerTransaction, TransactionLayer } from './transactions/layer.js';
import type { SipPeer } from './transport.js';

/** What the dialog layer lends each dialog: our address, the transactions, and the dialog map. */
export interface DialogStack {
  readonly local: LocalAddress;
  readonly transactions: TransactionLayer;
  /** In-dialog requests with the dialog's Call-ID and our tag reach it from now on. */
  register(dialog: Dialog): void;
  /** The dialog is over. */
  forget(dialog: Dialog): void;
}

/** What the owner of a dialog (the SIP call) hears of it. */
export interface DialogUser {
  /** The far end hung up (BYE), or never acknowledged a 2xx of ours (we sent BYE). */
  ended(by: 'bye' | 'no-ack'): void;
  /** A new offer (re-INVITE or UPDATE with SDP, e.g. hold): our answer's SDP, or null for 488. */
  reoffer(sdp: string): string | null;
  /** A re-INVITE without SDP asks for our offer (RFC 3261 section 14.2): null for 488. */
  offer(): string | null;
  /** A digit sent as SIP INFO. */
  digit(key: string): void;
  /** A 2xx of ours was acknowledged: the dialog takes offers of ours now. */
  confirmed(): void;
}

interface DialogFields {
  role: 'uas' | 'uac';
  callId: string;
  localTag: string;
  remoteTag: string;
  local: string;
  remote: string;
  remoteTarget: string;
  routeSet: string[];
  localSeq: number;
  remoteSeq: number;
  /** Our Contact, in our answers and requests. */
  contact: string;
  /** A UAC is confirmed by its own ACK; a UAS waits for the caller's. */
  confirmed: boolean;
}

/**
 * A dialog (RFC 3261 section 12), for either role: we answered the INVITE (UAS) or sent it
 * (UAC). It keeps the route set, both CSeqs and the remote target, builds our in-dialog
 * requests (BYE, re-INVITE, ACK of a 2xx), answers the far end's in one place (BYE; re-INVITE
 * and UPDATE, 491 while an offer is under way; INFO, OPTIONS, NOTIFY and unknown methods) and
 * runs one offer/answer exchange at a time.
 */
export class Dialog {
  readonly role: 'uas' | 'uac';
  readonly callId: string;
  readonly localTag: string;
  readonly remoteTag: string;
  /** Our URI with our tag (the INVITE's To when called, its From when calling). */
  readonly local: string;
  /** The far end's URI with its tag. */
  readonly remote: string;
  /** Where in-dialog requests go: the far end's Contact. */
  remoteTarget: string;
  /** The route set: Record-Route as received by a UAS, reversed by a UAC (RFC 3261 section 12.1). */
  readonly routeSet: string[];
  localSeq: number;
  remoteSeq: number;
  readonly contact: string;
  user: DialogUser | undefined;
  /** Called once, when the dialog is first confirmed (the ACK of our 2xx) or ends before. */
  onSettled: (() => void) | undefined;
  /** Where our requests go instead of the remote target (one the egress policy refused). */
  pinnedPeer: SipPeer | undefined;
  private confirmedYet: boolean;
  private over = false;
  /** A re-INVITE of ours is under way. */
  private offering = false;
  /** A 2xx of ours waiting for its ACK, with its CSeq. */
  private awaiting: { transaction: InviteServerTransaction; seq: number } | undefined;
  private byeWhenConfirmed = false;

  private constructor(
    fields: DialogFields,
    /** The transport and address the dialog began on. */
    readonly peer: SipPeer,
    private readonly stack: DialogStack,
  ) {
    this.role = fields.role;
    this.callId = fields.callId;
    this.localTag = fields.localTag;
    this.remoteTag = fields.remoteTag;
    this.local = fields.local;
    this.remote = fields.remote;
    this.remoteTarget = fields.remoteTarget;
    this.routeSet = fields.routeSet;
    this.localSeq = fields.localSeq;
    this.remoteSeq = fields.remoteSeq;
    this.contact = fields.contact;
    this.confirmedYet = fields.confirmed;
  }

  /** The dialog of an INVITE we answer (UAS). */
  static asUas(
    invite: SipRequest,
    localTag: string,
    peer: SipPeer,
    contact: string,
    stack: DialogStack,
  ): Dialog {
    const from = parseNameAddr(headerOf(invite.headers, 'from') ?? '');
    const to = parseNameAddr(headerOf(invite.headers, 'to') ?? '');
    const target = parseNameAddr(headerOf(invite.headers, 'contact') ?? '');
    return Dialog.behindNat(
      new Dialog(
        {
          role: 'uas',
          callId: headerOf(invite.headers, 'call-id') ?? '',
          localTag,
          remoteTag: from?.params.tag ?? '',
          local: to ? formatNameAddr({ ...to, params: { ...to.params, tag: localTag } }) : '',
          remote: headerOf(invite.headers, 'from') ?? '',
          remoteTarget: target?.uri ?? from?.uri ?? '',
          routeSet: headersOf(invite.headers, 'record-route'),
          localSeq: Math.floor(Math.random() * 10_000) + 1,
          remoteSeq: cseqOf(invite).seq,
          contact,
          confirmed: false,
        },
        peer,
        stack,
      ),
    );
  }

  /**
   * A far end whose Contact names a private address other than the one its messages come from
   * is behind a NAT: with no proxy in the route set, our requests go to where it sends from (its
   * flow), as Kamailio's `fix_nated_contact` and Asterisk's `rewrite_contact` do.
   */
  private static behindNat(dialog: Dialog): Dialog {
    if (dialog.routeSet.length > 0) return dialog;
    const host = parseSipUri(dialog.remoteTarget)?.host ?? '';
    if (isPrivateAddress(host) && host !== dialog.peer.address) dialog.pinnedPeer = dialog.peer;
    return dialog;
  }

  /** The dialog of an INVITE of ours that `ok` (a 2xx) answered (UAC). */
  static asUac(
    invite: SipRequest,
    ok: SipResponse,
    localTag: string,
    peer: SipPeer,
    stack: DialogStack,
  ): Dialog {
    const to = headerOf(ok.headers, 'to') ?? '';
    const target = parseNameAddr(headerOf(ok.headers, 'contact') ?? '');
    return Dialog.behindNat(
      new Dialog(
        {
          role: 'uac',
          callId: headerOf(invite.headers, 'call-id') ?? '',
          localTag,
          remoteTag: parseNameAddr(to)?.params.tag ?? '',
          local: headerOf(invite.headers, 'from') ?? '',
          remote: to,
          remoteTarget: target?.uri ?? invite.uri,
          routeSet: headersOf(ok.headers, 'record-route').reverse(),
          localSeq: cseqOf(invite).seq,
          remoteSeq: 0,
          contact: headerOf(invite.headers, 'contact') ?? '',
          confirmed: true,
        },
        peer,
        stack,
      ),
    );
  }

  get ended(): boolean {
    return this.over;
  }

  get confirmed(): boolean {
    return this.confirmedYet;
  }

  /** The host our in-dialog requests go to: the first route's, else the remote target's. */
  get nextHop(): string {
    return this.nextHopUri()?.host ?? '';
  }

  /** The URI our requests are sent to: the first loose route, else the remote target. */
  private nextHopUri() {
    const first = this.routeSet[0] ? parseNameAddr(this.routeSet[0])?.uri : undefined;
    return parseSipUri(first ?? this.remoteTarget);
  }

  /**
   * An in-dialog request of ours and the peer to send it to: the first loose route, else the
   * remote target, over the transport the dialog began on.
   */
  request(
    method: string,
    branch: string,
    /** The CSeq number to use (an ACK takes its INVITE's); default the next one. */
    seq?: number,
  ): { request: SipRequest; peer: SipPeer } {
    if (seq === undefined) this.localSeq += 1;
    const local = this.stack.local;
    const transport = this.peer.transport.toUpperCase();
    const headers: SipHeaders = [
      ['via', `SIP/2.0/${transport} ${hostPort(local)};branch=z9hG4bK${branch};rport`],
      ['max-forwards', '70'],
      ['from', this.local],
      ['to', this.remote],
      ['call-id', this.callId],
      ['cseq', `${seq ?? this.localSeq} ${method}`],
    ];
    for (const route of this.routeSet) headers.push(['route', route]);
    headers.push(['user-agent', 'rcml-engine']);
    const request: SipRequest = { kind: 'request', method, uri: this.remoteTarget, headers, body: '' };
    if (this.pinnedPeer) return { request, peer: this.pinnedPeer };
    const next = this.nextHopUri();
    const peer: SipPeer = next?.host
      ? {
          transport: this.peer.transport,
          address: next.host,
          port: next.port ?? (next.scheme === 'sips' ? 5061 : 5060),
        }
      : this.peer;
    return { request, peer };
  }

  /** Acknowledges a 2xx of our INVITE (each retransmission too): a new transaction to the remote target. */
  acknowledge(inviteSeq: number): void {
    const { request, peer } = this.request('ACK', token(), inviteSeq);
    this.stack.transactions.sendStateless(request, peer);
  }

  /** Our 2xx in `transaction` waits for its ACK; none within 64*T1 ends the dialog with a BYE. */
  awaitAck(transaction: InviteServerTransaction): void {
    const seq = cseqOf(transaction.request).seq;
    this.awaiting = { transaction, seq };
    transaction.onNoAck = () => {
      if (this.awaiting?.transaction !== transaction) return;
      this.awaiting = undefined;
      if (this.over) return;
      // RFC 3261 section 13.3.1.4: the dialog is confirmed, and the session ended.
      this.confirmedYet = true;
      this.settle();
      this.bye();
      this.user?.ended('no-ack');
    };
  }

  /** An ACK in this dialog: of a 2xx of ours, which is not sent again. */
  ack(request: SipRequest): void {
    const awaiting = this.awaiting;
    if (!awaiting || cseqOf(request).seq !== awaiting.seq) return;
    this.awaiting = undefined;
    awaiting.transaction.acknowledged();
    this.confirmedYet = true;
    this.settle();
    if (this.byeWhenConfirmed) this.bye();
    else if (!this.over) this.user?.confirmed();
  }

  /** A request of the far end in this dialog (not an ACK). */
  receive(transaction: ServerTransaction): void {
    const request = transaction.request;
    const reply = (status: number, options?: Parameters<typeof responseTo>[2]) =>
      transaction.respond(responseTo(request, status, options));
    const { seq } = cseqOf(request);
    if (this.over) {
      reply(481);
      return;
    }
    if (seq < this.remoteSeq) {
      reply(500, { reason: 'CSeq Out of Order' });
      return;
    }
    this.remoteSeq = seq;
    const target = parseNameAddr(headerOf(request.headers, 'contact') ?? '');
    // A target refresh (RFC 3261 section 12.2.2).
    if (target && (request.method === 'INVITE' || request.method === 'UPDATE'))
      this.remoteTarget = target.uri;
    switch (request.method) {
      case 'BYE':
        reply(200);
        this.end();
        this.user?.ended('bye');
        return;
      case 'INVITE':
      case 'UPDATE': {
        // Glare (RFC 3261 section 14.2, RFC 3311 section 5.2): one offer/answer at a time.
        const pending = this.offering || (request.method === 'INVITE' && this.awaiting !== undefined);
        if (pending && (request.method === 'INVITE' || request.body)) {
          reply(491);
          return;
        }
        // A re-INVITE without SDP (a refresh, a late offer) gets our current session as an offer;
        // an UPDATE without SDP (a session-timer refresh) gets no SDP.
        const answer = request.body
          ? (this.user?.reoffer(request.body) ?? null)
          : request.method === 'INVITE'
            ? (this.user?.offer() ?? null)
            : undefined;
        if (answer === null) {
          reply(488);
          return;
        }
        reply(200, { contact: this.contact, body: answer });
        if (request.method === 'INVITE') this.awaitAck(transaction as InviteServerTransaction);
        return;
      }
      default:
        answerOtherInDialog(
          request,
          (response) => transaction.respond(response),
          (key) => this.user?.digit(key),
        );
    }
  }

  /**
   * Sends a new offer of ours (hold: `sendonly`, resume: `sendrecv`) as a re-INVITE; false when
   * it cannot now (not confirmed, an exchange under way, over). `done` gets the final status
   * once (408 when nothing answered); every 2xx is acknowledged.
   */
  sendOffer(sdp: string, done: (status: number) => void): boolean {
    if (this.over || !this.confirmedYet || this.offering || this.awaiting) return false;
    this.offering = true;
    const { request, peer } = this.request('INVITE', token());
    request.headers.push(['contact', this.contact], ['content-type', 'application/sdp']);
    request.body = sdp;
    const seq = this.localSeq;
    let finished = false;
    const finish = (status: number) => {
      if (finished) return;
      finished = true;
      this.offering = false;
      done(status);
    };
    this.stack.transactions.sendInvite(request, peer, {
      response: (response) => {
        if (response.status < 200) return;
        if (response.status < 300 && !this.over) this.acknowledge(seq);
        finish(response.status);
      },
      timeout: () => finish(408),
    });
    return true;
  }

  /** Our hang-up: a BYE, once the dialog is confirmed (at the ACK, when it has not come yet). */
  bye(): void {
    if (this.over) return;
    if (!this.confirmedYet) {
      this.byeWhenConfirmed = true;
      return;
    }
    this.end();
    const { request, peer } = this.request('BYE', token());
    this.stack.transactions.sendRequest(request, peer, { response: () => {}, timeout: () => {} });
  }

  private end(): void {
    this.over = true;
    this.stack.forget(this);
    this.settle();
  }

  private settle(): void {
    const settled = this.onSettled;
    this.onSettled = undefined;
    settled?.();
  }
}
