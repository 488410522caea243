/** An outgoing INVITE challenged by a proxy (407): answered once, with the next CSeq. */
import { describe, expect, it } from 'vitest';
import { headerOf, type SipRequest, type SipResponse } from '../../../src/telephony/sip/message.js';
import { branchOf } from '../../../src/telephony/sip/transactions/matching.js';
import { UacInvite } from '../../../src/telephony/sip/uac-invite.js';
import { testStack } from './stack.js';

describe('digest challenge of an outgoing INVITE', () => {
  it('answers a 407 with Proxy-Authorization in a new transaction, re-ACKs the old one, and fails on a second 407', () => {
    const stack = testStack();
    const events: string[] = [];
    const call = new UacInvite(
      {
        uri: 'sip:+15551234@127.0.0.1:5070',
        peer: { transport: 'udp', address: '127.0.0.1', port: 5070 },
        fromUser: 'rcml',
        sdp: 'v=0\r\n',
        headers: [],
        credentials: { username: 'acme', password: 'pw' },
      },
      stack.dialogs,
    );
    call.events = {
      progress: () => {},
      answered: () => events.push('answered'),
      failed: (s) => events.push(`failed ${s}`),
    };
    const challenge = (invite: SipRequest): SipResponse => ({
      kind: 'response',
      status: 407,
      reason: 'Proxy Authentication Required',
      headers: [
        ['via', headerOf(invite.headers, 'via') ?? ''],
        ['from', headerOf(invite.headers, 'from') ?? ''],
        ['to', '<sip:+15551234@127.0.0.1:5070>;tag=gw'],
        ['call-id', call.callId],
        ['cseq', headerOf(invite.headers, 'cseq') ?? ''],
        ['proxy-authenticate', 'Digest realm="gw", nonce="abc", qop="auth"'],
      ],
      body: '',
    });
    call.start();
    const first = call.invite;
    const firstChallenge = challenge(first);
    stack.deliver(firstChallenge);
    const second = call.invite;
    expect(stack.requests().map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE']);
    // The challenged transaction lingers (Timer D) beside the new one.
    expect(stack.transactions.size).toBe(2);
    expect(branchOf(second)).not.toBe(branchOf(first));
    expect(headerOf(second.headers, 'cseq')).toBe('2 INVITE');
    expect(headerOf(second.headers, 'call-id')).toBe(call.callId);
    expect(headerOf(second.headers, 'from')).toBe(headerOf(first.headers, 'from'));
    expect(headerOf(second.headers, 'proxy-authorization')).toMatch(
      /^Digest username="acme", realm="gw", nonce="abc"/,
    );
    expect(headerOf(second.headers, 'authorization')).toBeUndefined();
    // The first challenge again (its ACK was lost): acknowledged again, nothing else.
    stack.deliver(firstChallenge);
    expect(stack.requests().map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE', 'ACK']);
    expect(branchOf(stack.requests()[3])).toBe(branchOf(first));
    stack.deliver(challenge(second));
    expect(events).toEqual(['failed 407']);
    expect(stack.requests().map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE', 'ACK', 'ACK']);
  });
});
