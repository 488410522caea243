import { describe, expect, it } from 'vitest';
import { headerOf, type SipResponse } from '../../../src/telephony/sip/message.js';
import { T1 } from '../../../src/telephony/sip/timers.js';
import { UacInvite } from '../../../src/telephony/sip/uac-invite.js';
import { testStack } from './stack.js';

/** A call over a stack that logs what it sends; `respond` makes the callee's answers. */
function setup() {
  const stack = testStack();
  const sent = stack.requests;
  const events: string[] = [];
  const call = new UacInvite(
    {
      uri: 'sip:alice@127.0.0.1:5070',
      peer: { transport: 'udp', address: '127.0.0.1', port: 5070 },
      fromUser: '+15551111',
      sdp: 'v=0\r\n',
      headers: [['x-customer', 'gold']],
    },
    stack.dialogs,
  );
  call.events = {
    progress: (status) => events.push(`progress ${status}`),
    answered: () => events.push('answered'),
    failed: (status) => events.push(`failed ${status}`),
  };
  const respond = (status: number, body = ''): SipResponse => {
    const response: SipResponse = {
      kind: 'response',
      status,
      reason: 'x',
      headers: [
        ['via', headerOf(call.invite.headers, 'via') ?? ''],
        ['from', headerOf(call.invite.headers, 'from') ?? ''],
        ['to', `<sip:alice@127.0.0.1:5070>;tag=callee`],
        ['call-id', call.callId],
        ['cseq', '1 INVITE'],
        ['contact', '<sip:alice@127.0.0.1:5070>'],
      ],
      body,
    };
    stack.deliver(response);
    return response;
  };
  const methods = () => sent().map((r) => r.method);
  return { call, sent, events, respond, methods, timers: stack.timers };
}

describe('outgoing INVITE transaction', () => {
  it('retransmits the INVITE at T1 doubling until a provisional answer, then stops', () => {
    const { call, respond, methods, sent, timers } = setup();
    call.start();
    timers.advance(T1 * 3 + 1);
    expect(methods()).toEqual(['INVITE', 'INVITE', 'INVITE']);
    expect(headerOf(sent()[0].headers, 'x-customer')).toBe('gold');
    respond(180);
    timers.advance(64 * T1);
    expect(methods()).toEqual(['INVITE', 'INVITE', 'INVITE']);
  });

  it('gives up with 408 when nothing answers within 64*T1', () => {
    const { call, events, timers } = setup();
    call.start();
    timers.advance(64 * T1);
    expect(events).toEqual(['failed 408']);
  });

  it('acknowledges a refusal in the transaction (same branch) and each 2xx in the dialog (new branch)', () => {
    const refused = setup();
    refused.call.start();
    refused.respond(486);
    refused.respond(486);
    expect(refused.events).toEqual(['failed 486']);
    const acks = refused.sent().filter((r) => r.method === 'ACK');
    expect(acks).toHaveLength(2);
    expect(headerOf(acks[0].headers, 'via')).toBe(headerOf(refused.call.invite.headers, 'via'));

    const answered = setup();
    answered.call.start();
    answered.respond(200, 'v=0\r\n');
    answered.respond(200, 'v=0\r\n');
    expect(answered.events).toEqual(['answered']);
    const oks = answered.sent().filter((r) => r.method === 'ACK');
    expect(oks).toHaveLength(2);
    expect(oks[0].uri).toBe('sip:alice@127.0.0.1:5070');
    expect(headerOf(oks[0].headers, 'via')).not.toBe(headerOf(answered.call.invite.headers, 'via'));
    expect(headerOf(oks[0].headers, 'cseq')).toBe('1 ACK');
  });

  it('sends CANCEL only once a provisional answer came, reports nothing after it, and hangs up a 200 that crossed it', () => {
    const { call, respond, methods, events } = setup();
    call.start();
    call.cancel();
    expect(methods()).toEqual(['INVITE']);
    respond(180);
    expect(methods()).toEqual(['INVITE', 'CANCEL']);
    respond(200, 'v=0\r\n');
    expect(methods()).toEqual(['INVITE', 'CANCEL', 'ACK', 'BYE']);
    expect(events).toEqual([]);
  });
});
