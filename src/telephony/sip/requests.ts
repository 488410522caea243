/**
 * Requests built from an INVITE of ours: its CANCEL (RFC 3261 section 9.1) and the ACK of a
 * refusal (section 17.1.1.3). Both copy the INVITE's Request-URI, top Via, From, Call-ID, CSeq
 * number and Route set; the ACK takes the To of the response (its tag).
 */
import {
  cseqOf,
  headerOf,
  headersOf,
  type SipHeaders,
  type SipRequest,
  type SipResponse,
} from './message.js';

function copyOf(invite: SipRequest, method: string, to: string): SipRequest {
  const headers: SipHeaders = [
    ['via', headerOf(invite.headers, 'via') ?? ''],
    ['max-forwards', '70'],
    ['from', headerOf(invite.headers, 'from') ?? ''],
    ['to', to],
    ['call-id', headerOf(invite.headers, 'call-id') ?? ''],
    ['cseq', `${cseqOf(invite).seq} ${method}`],
  ];
  for (const route of headersOf(invite.headers, 'route')) headers.push(['route', route]);
  return { kind: 'request', method, uri: invite.uri, headers, body: '' };
}

/** The CANCEL of an INVITE of ours: same branch, the INVITE's To. */
export function cancelOf(invite: SipRequest): SipRequest {
  return copyOf(invite, 'CANCEL', headerOf(invite.headers, 'to') ?? '');
}

/** The ACK of a final refusal (3xx-6xx) of an INVITE of ours, sent within its transaction. */
export function ackOfRefusal(invite: SipRequest, refusal: SipResponse): SipRequest {
  return copyOf(invite, 'ACK', headerOf(refusal.headers, 'to') ?? '');
}
