/**
 * How messages find their transactions (RFC 3261 sections 17.1.3 and 17.2.3). A response
 * belongs to the client transaction of its top Via's branch and its CSeq method (a CANCEL
 * shares its INVITE's branch). A request belongs to the server transaction of its top Via's
 * branch, sent-by and method, an ACK and a CANCEL to their INVITE's; a request without the
 * RFC 3261 magic cookie is matched on its dialog identifiers, CSeq and top Via as RFC 2543 did.
 */
import { parseNameAddr } from '../address.js';
import { headerOf, type SipMessage, type SipRequest } from '../message.js';
import type { SipPeer } from '../transport.js';

/** The branch of a message's top Via ('' when it has none). */
export function branchOf(message: SipMessage): string {
  const via = headerOf(message.headers, 'via') ?? '';
  return /;\s*branch=([^;\s,]+)/i.exec(via)?.[1] ?? '';
}

/** The sent-by (host and port) of a message's top Via, in lower case. */
export function sentByOf(message: SipMessage): string {
  return sentByOfVia(headerOf(message.headers, 'via') ?? '').toLowerCase();
}

/** The sent-by (`host[:port]`, `[v6]:port`) of one Via value, as written. */
function sentByOfVia(via: string): string {
  return /^SIP\s*\/\s*2\.0\s*\/\s*[A-Za-z]+\s+([^;\s]+)/i.exec(via)?.[1] ?? '';
}

/** The method of a message's CSeq in upper case ('' when unreadable). */
export function cseqMethodOf(message: SipMessage): string {
  return /^\s*\d+\s+([A-Za-z]+)\s*$/.exec(headerOf(message.headers, 'cseq') ?? '')?.[1].toUpperCase() ?? '';
}

/** The key of the client transaction a response belongs to. */
export function clientKeyOf(message: SipMessage): string {
  return `${branchOf(message)}|${cseqMethodOf(message)}`;
}

/**
 * The key of the server transaction a request belongs to. `as` names the method whose
 * transaction is meant: an ACK of a refusal and a CANCEL are matched to their INVITE with
 * `as: 'INVITE'`.
 */
export function serverKeyOf(request: SipRequest, as: string = request.method): string {
  const branch = branchOf(request);
  const method = as === 'ACK' ? 'INVITE' : as;
  if (branch.startsWith('z9hG4bK') && branch.length > 7) return `${branch}|${sentByOf(request)}|${method}`;
  const fromTag = parseNameAddr(headerOf(request.headers, 'from') ?? '')?.params.tag ?? '';
  const seq = /^\s*(\d+)/.exec(headerOf(request.headers, 'cseq') ?? '')?.[1] ?? '';
  const via = (headerOf(request.headers, 'via') ?? '').toLowerCase();
  return `2543|${request.uri}|${headerOf(request.headers, 'call-id') ?? ''}|${fromTag}|${seq}|${via}|${method}`;
}

/**
 * Notes on a request's top Via where it came from, for its responses to go back there: `received`
 * when the sent-by host is not the source address (RFC 3261 section 18.2.1), and with an empty
 * `rport` both `rport=<port>` and `received` (RFC 3581 section 4), as NATs need.
 */
export function stampVia(request: SipRequest, peer: SipPeer): void {
  const at = request.headers.findIndex(([name]) => name === 'via');
  if (at < 0) return;
  let via = request.headers[at][1];
  const sentBy = sentByOfVia(via);
  const host = sentBy.startsWith('[') ? sentBy.slice(1, sentBy.indexOf(']')) : sentBy.replace(/:\d*$/, '');
  const wantsPort = /;\s*rport(?=\s*(;|$))/i.test(via);
  if (wantsPort) via = via.replace(/;\s*rport(?=\s*(;|$))/i, `;rport=${peer.port}`);
  if ((wantsPort || host !== peer.address) && !/;\s*received=/i.test(via)) via += `;received=${peer.address}`;
  request.headers[at] = ['via', via];
}
