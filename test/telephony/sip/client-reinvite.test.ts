/** A callee's re-INVITE on an outgoing call: our 200 goes again until its ACK, as on inbound calls. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientCall, type ClientWire } from '../../../src/telephony/sip/client-call.js';
import { T1, T2 } from '../../../src/telephony/sip/dialog.js';
import { headerOf, type SipRequest, type SipResponse } from '../../../src/telephony/sip/message.js';

const peer = { transport: 'udp' as const, address: '127.0.0.1', port: 5070 };

/** An answered outgoing call over a fake wire logging what it sends. */
function answeredCall() {
  const requests: SipRequest[] = [];
  const responses: SipResponse[] = [];
  const events: string[] = [];
  const wire: ClientWire = {
    local: { host: '127.0.0.1', port: 5060 },
    send: (m) => (m.kind === 'request' ? requests.push(m) : responses.push(m)),
    request: (r) => requests.push(r),
    confirm: () => {},
    forget: () => {},
    rebranched: () => {},
    listen: () => {},
    unlisten: () => {},
  };
  const call = new ClientCall(
    { uri: 'sip:alice@127.0.0.1:5070', peer, fromUser: 'rcml', sdp: 'v=0\r\n', headers: [] },
    wire,
  );
  call.events = {
    progress: () => {},
    answered: () => events.push('answered'),
    failed: (s) => events.push(`failed ${s}`),
    ended: () => events.push('ended'),
    digit: () => {},
    reoffer: () => 'v=0\r\no=rcml 1 2 IN IP4 127.0.0.1\r\n',
  };
  call.start();
  call.onResponse({
    kind: 'response',
    status: 200,
    reason: 'OK',
    headers: [
      ['via', headerOf(call.invite.headers, 'via') ?? ''],
      ['from', headerOf(call.invite.headers, 'from') ?? ''],
      ['to', '<sip:alice@127.0.0.1:5070>;tag=callee'],
      ['call-id', call.callId],
      ['cseq', '1 INVITE'],
      ['contact', '<sip:alice@127.0.0.1:5070>'],
    ],
    body: 'v=0\r\n',
  });
  const inDialog = (method: string, seq: number) => {
    const request: SipRequest = {
      kind: 'request',
      method,
      uri: 'sip:rcml@127.0.0.1:5060',
      headers: [
        ['via', `SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKre${seq}${method}`],
        ['from', '<sip:alice@127.0.0.1:5070>;tag=callee'],
        ['to', `${headerOf(call.invite.headers, 'from')}`],
        ['call-id', call.callId],
        ['cseq', `${seq} ${method}`],
      ],
      body: method === 'INVITE' ? 'v=0\r\nc=IN IP4 127.0.0.1\r\na=sendonly\r\n' : '',
    };
    if (method === 'ACK') call.ack(request);
    else call.inDialog(request, peer);
  };
  const oks = () =>
    responses.filter((r) => r.status === 200 && /INVITE$/.test(headerOf(r.headers, 'cseq') ?? ''));
  return { call, requests, responses, events, inDialog, oks };
}

describe("our 200 to a callee's re-INVITE", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is sent again at T1 doubling up to T2 until its ACK, and a re-INVITE meanwhile gets 491', () => {
    const { inDialog, oks, responses } = answeredCall();
    inDialog('INVITE', 5);
    expect(oks()).toHaveLength(1);
    vi.advanceTimersByTime(T1);
    expect(oks()).toHaveLength(2);
    vi.advanceTimersByTime(2 * T1 + 4 * T1 + T2 + T2);
    expect(oks()).toHaveLength(6);
    inDialog('INVITE', 6);
    expect(responses.at(-1)?.status).toBe(491);
    inDialog('ACK', 5);
    vi.advanceTimersByTime(64 * T1);
    expect(oks()).toHaveLength(6);
  });

  it('ends the call with a BYE when no ACK comes within 64*T1', () => {
    const { inDialog, requests, events } = answeredCall();
    inDialog('INVITE', 5);
    vi.advanceTimersByTime(64 * T1);
    expect(requests.map((r) => r.method)).toEqual(['INVITE', 'ACK', 'BYE']);
    expect(events).toEqual(['answered', 'ended']);
  });
});
