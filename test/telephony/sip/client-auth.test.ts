/** An outgoing INVITE challenged by a proxy (407): answered once, with the next CSeq. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientCall, type ClientWire } from '../../../src/telephony/sip/client-call.js';
import { headerOf, type SipRequest, type SipResponse } from '../../../src/telephony/sip/message.js';
import { branchOf } from '../../../src/telephony/sip/server-call.js';

describe('digest challenge of an outgoing INVITE', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a 407 with Proxy-Authorization in a new transaction, re-ACKs the old one, and fails on a second 407', () => {
    const sent: SipRequest[] = [];
    const events: string[] = [];
    let rebranched = 0;
    const wire: ClientWire = {
      local: { host: '127.0.0.1', port: 5060 },
      send: (m) => {
        if (m.kind === 'request') sent.push(m);
      },
      request: (r) => sent.push(r),
      confirm: () => {},
      forget: () => {},
      rebranched: () => rebranched++,
      listen: () => {},
      unlisten: () => {},
    };
    const call = new ClientCall(
      {
        uri: 'sip:+15551234@127.0.0.1:5070',
        peer: { transport: 'udp', address: '127.0.0.1', port: 5070 },
        fromUser: 'rcml',
        sdp: 'v=0\r\n',
        headers: [],
        credentials: { username: 'acme', password: 'pw' },
      },
      wire,
    );
    call.events = {
      progress: () => {},
      answered: () => events.push('answered'),
      failed: (s) => events.push(`failed ${s}`),
      ended: () => {},
      digit: () => {},
      reoffer: () => null,
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
    call.onResponse(firstChallenge);
    const second = call.invite;
    expect(sent.map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE']);
    expect(rebranched).toBe(1);
    expect(branchOf(second)).not.toBe(branchOf(first));
    expect(headerOf(second.headers, 'cseq')).toBe('2 INVITE');
    expect(headerOf(second.headers, 'call-id')).toBe(call.callId);
    expect(headerOf(second.headers, 'from')).toBe(headerOf(first.headers, 'from'));
    expect(headerOf(second.headers, 'proxy-authorization')).toMatch(
      /^Digest username="acme", realm="gw", nonce="abc"/,
    );
    expect(headerOf(second.headers, 'authorization')).toBeUndefined();
    // The first challenge again (its ACK was lost): acknowledged again, nothing else.
    call.onResponse(firstChallenge);
    expect(sent.map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE', 'ACK']);
    expect(branchOf(sent[3])).toBe(branchOf(first));
    call.onResponse(challenge(second));
    expect(events).toEqual(['failed 407']);
    expect(sent.map((r) => r.method)).toEqual(['INVITE', 'ACK', 'INVITE', 'ACK', 'ACK']);
  });
});
