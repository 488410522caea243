/** A callee's re-INVITE on an outgoing call: our 200 goes again until its ACK, as on inbound calls. */
import { describe, expect, it } from 'vitest';
import { headerOf, type SipRequest } from '../../../src/telephony/sip/message.js';
import { T1, T2 } from '../../../src/telephony/sip/timers.js';
import { UacInvite } from '../../../src/telephony/sip/uac-invite.js';
import { testStack } from './stack.js';

const peer = { transport: 'udp' as const, address: '127.0.0.1', port: 5070 };

/** An answered outgoing call over a stack logging what it sends. */
function answeredCall() {
  const stack = testStack();
  const events: string[] = [];
  const call = new UacInvite(
    { uri: 'sip:alice@127.0.0.1:5070', peer, fromUser: 'rcml', sdp: 'v=0\r\n', headers: [] },
    stack.dialogs,
  );
  call.events = {
    progress: () => {},
    answered: () => {
      events.push('answered');
      if (!call.dialog) return;
      call.dialog.user = {
        ended: () => events.push('ended'),
        digit: () => {},
        offer: () => null,
        confirmed: () => {},
        reoffer: () => 'v=0\r\no=rcml 1 2 IN IP4 127.0.0.1\r\n',
      };
    },
    failed: (s) => events.push(`failed ${s}`),
  };
  call.start();
  stack.deliver({
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
    stack.deliver(request, peer);
  };
  const oks = () =>
    stack.responses().filter((r) => r.status === 200 && /INVITE$/.test(headerOf(r.headers, 'cseq') ?? ''));
  return {
    call,
    requests: stack.requests,
    responses: stack.responses,
    events,
    inDialog,
    oks,
    timers: stack.timers,
  };
}

describe("our 200 to a callee's re-INVITE", () => {
  it('is sent again at T1 doubling up to T2 until its ACK, and a re-INVITE meanwhile gets 491', () => {
    const { inDialog, oks, responses, timers } = answeredCall();
    inDialog('INVITE', 5);
    expect(oks()).toHaveLength(1);
    timers.advance(T1);
    expect(oks()).toHaveLength(2);
    timers.advance(2 * T1 + 4 * T1 + T2 + T2);
    expect(oks()).toHaveLength(6);
    inDialog('INVITE', 6);
    expect(responses().at(-1)?.status).toBe(491);
    inDialog('ACK', 5);
    timers.advance(64 * T1);
    expect(oks()).toHaveLength(6);
  });

  it('ends the call with a BYE when no ACK comes within 64*T1', () => {
    const { inDialog, requests, events, timers } = answeredCall();
    inDialog('INVITE', 5);
    timers.advance(64 * T1);
    expect(requests().map((r) => r.method)).toEqual(['INVITE', 'ACK', 'BYE']);
    expect(events).toEqual(['answered', 'ended']);
  });
});
