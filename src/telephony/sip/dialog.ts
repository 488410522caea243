import { randomBytes } from 'node:crypto';
import { formatNameAddr, parseNameAddr, parseSipUri } from './address.js';
import {
  cseqOf,
  headerOf,
  headersOf,
  REASONS,
  type SipHeaders,
  type SipRequest,
  type SipResponse,
} from './message.js';
import type { SipPeer } from './transport.js';

/** RFC 3261 timers, ms: T1 (round trip estimate) and T2 (cap of non-INVITE retransmission). */
export const T1 = 500;
export const T2 = 4000;

/** A random token for tags and branches. */
export function token(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

/** Our own address as it appears in Via, Contact and SDP. */
export interface LocalAddress {
  /** Host written in Via, Contact and SDP (the public address). */
  host: string;
  port: number;
}

/**
 * A response to `request` (RFC 3261 section 8.2.6): Via, From, To, Call-ID and CSeq copied,
 * our tag on the To of anything but 100, Record-Route and Contact on dialog-making answers.
 */
export function responseTo(
  request: SipRequest,
  status: number,
  options: { toTag?: string; contact?: string; body?: string; headers?: SipHeaders; reason?: string } = {},
): SipResponse {
  const headers: SipHeaders = [];
  for (const v of headersOf(request.headers, 'via')) headers.push(['via', v]);
  headers.push(['from', headerOf(request.headers, 'from') ?? '']);
  let to = headerOf(request.headers, 'to') ?? '';
  if (status > 100 && options.toTag) {
    const addr = parseNameAddr(to);
    if (addr && addr.params.tag === undefined)
      to = formatNameAddr({ ...addr, params: { ...addr.params, tag: options.toTag } });
  }
  headers.push(['to', to]);
  headers.push(['call-id', headerOf(request.headers, 'call-id') ?? '']);
  headers.push(['cseq', headerOf(request.headers, 'cseq') ?? '']);
  if (request.method === 'INVITE' && status > 100 && status < 300) {
    for (const v of headersOf(request.headers, 'record-route')) headers.push(['record-route', v]);
  }
  if (options.contact && status > 100 && status < 300) headers.push(['contact', options.contact]);
  if (options.headers) headers.push(...options.headers);
  if (options.body) headers.push(['content-type', 'application/sdp']);
  return {
    kind: 'response',
    status,
    reason: options.reason ?? REASONS[status] ?? 'Unknown',
    headers,
    body: options.body ?? '',
  };
}

/** The dialog an answered INVITE made, from either side. */
/**
 * How an in-dialog request is refused (481 without a dialog, 500 when its CSeq goes back), or
 * undefined once the dialog has taken its CSeq (RFC 3261 section 12.2.2).
 */
export function refuseInDialog(dialog: Dialog | undefined, request: SipRequest): SipResponse | undefined {
  if (!dialog) return responseTo(request, 481);
  const { seq } = cseqOf(request);
  if (seq < dialog.remoteSeq) return responseTo(request, 500, { reason: 'CSeq Out of Order' });
  dialog.remoteSeq = seq;
  return undefined;
}

export class Dialog {
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
  localSeq = Math.floor(Math.random() * 10_000) + 1;
  remoteSeq: number;

  private constructor(
    fields: {
      callId: string;
      localTag: string;
      remoteTag: string;
      local: string;
      remote: string;
      remoteTarget: string;
      routeSet: string[];
      localSeq?: number;
      remoteSeq: number;
    },
    readonly peer: SipPeer,
  ) {
    this.callId = fields.callId;
    this.localTag = fields.localTag;
    this.remoteTag = fields.remoteTag;
    this.local = fields.local;
    this.remote = fields.remote;
    this.remoteTarget = fields.remoteTarget;
    this.routeSet = fields.routeSet;
    if (fields.localSeq !== undefined) this.localSeq = fields.localSeq;
    this.remoteSeq = fields.remoteSeq;
  }

  /** The dialog of an INVITE we answer (we are the UAS). */
  static asCallee(invite: SipRequest, localTag: string, peer: SipPeer): Dialog {
    const from = parseNameAddr(headerOf(invite.headers, 'from') ?? '');
    const to = parseNameAddr(headerOf(invite.headers, 'to') ?? '');
    const contact = parseNameAddr(headerOf(invite.headers, 'contact') ?? '');
    return new Dialog(
      {
        callId: headerOf(invite.headers, 'call-id') ?? '',
        localTag,
        remoteTag: from?.params.tag ?? '',
        local: to ? formatNameAddr({ ...to, params: { ...to.params, tag: localTag } }) : '',
        remote: headerOf(invite.headers, 'from') ?? '',
        remoteTarget: contact?.uri ?? from?.uri ?? '',
        routeSet: headersOf(invite.headers, 'record-route'),
        remoteSeq: cseqOf(invite).seq,
      },
      peer,
    );
  }

  /** The dialog of an INVITE of ours that `ok` (a 2xx) answered (we are the UAC). */
  static asCaller(invite: SipRequest, ok: SipResponse, localTag: string, peer: SipPeer): Dialog {
    const to = headerOf(ok.headers, 'to') ?? '';
    const contact = parseNameAddr(headerOf(ok.headers, 'contact') ?? '');
    return new Dialog(
      {
        callId: headerOf(invite.headers, 'call-id') ?? '',
        localTag,
        remoteTag: parseNameAddr(to)?.params.tag ?? '',
        local: headerOf(invite.headers, 'from') ?? '',
        remote: to,
        remoteTarget: contact?.uri ?? invite.uri,
        routeSet: headersOf(ok.headers, 'record-route').reverse(),
        localSeq: cseqOf(invite).seq,
        remoteSeq: 0,
      },
      peer,
    );
  }

  /**
   * An in-dialog request of ours (BYE) and the peer to send it to: the first loose route, else
   * the remote target, over the transport the call came in on.
   */
  request(
    method: string,
    local: LocalAddress,
    branch: string,
    /** The CSeq number to use (an ACK takes its INVITE's); default the next one. */
    seq?: number,
  ): { request: SipRequest; peer: SipPeer } {
    if (seq === undefined) this.localSeq += 1;
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
    const first = this.routeSet[0] ? parseNameAddr(this.routeSet[0])?.uri : undefined;
    const next = parseSipUri(first ?? this.remoteTarget);
    const peer: SipPeer = next?.host
      ? {
          transport: this.peer.transport,
          address: next.host,
          port: next.port ?? (next.scheme === 'sips' ? 5061 : 5060),
        }
      : this.peer;
    return { request, peer };
  }
}

export function hostPort(local: LocalAddress): string {
  return local.host.includes(':') ? `[${local.host}]:${local.port}` : `${local.host}:${local.port}`;
}
