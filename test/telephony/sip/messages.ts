/** SIP requests and responses for the transaction tests, written as a peer would send them. */
import type { SipRequest, SipResponse } from '../../../src/telephony/sip/message.js';
import { responseTo } from '../../../src/telephony/sip/responses.js';

/** A request from a peer at 127.0.0.1:5070, in a transaction of `branch`. */
export function requestOf(
  method: string,
  branch: string,
  options: { seq?: number; toTag?: string; body?: string } = {},
): SipRequest {
  const to = options.toTag ? `<sip:rcml@127.0.0.1>;tag=${options.toTag}` : '<sip:rcml@127.0.0.1>';
  const cseqMethod = method === 'ACK' || method === 'CANCEL' ? method : method;
  return {
    kind: 'request',
    method,
    uri: 'sip:15550100@127.0.0.1:5060',
    headers: [
      ['via', `SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK${branch};rport`],
      ['max-forwards', '70'],
      ['from', '<sip:alice@127.0.0.1:5070>;tag=a1'],
      ['to', to],
      ['call-id', `call-${branch}`],
      ['cseq', `${options.seq ?? 1} ${cseqMethod}`],
      ['contact', '<sip:alice@127.0.0.1:5070>'],
    ],
    body: options.body ?? '',
  };
}

/** The far end's answer to a request of ours, with its tag. */
export function answerTo(request: SipRequest, status: number): SipResponse {
  return responseTo(request, status, { toTag: 'far' });
}
