/**
 * The four transaction state machines of RFC 3261 section 17 and RFC 6026, one test per timer,
 * on ManualSipTimers: a 32 s timer runs in microseconds and its deadline is checked to the ms.
 */
import { describe, expect, it } from 'vitest';
import { headerOf, type SipResponse } from '../../../src/telephony/sip/message.js';
import { responseTo } from '../../../src/telephony/sip/responses.js';
import { T1, T2, T4 } from '../../../src/telephony/sip/timers.js';
import type { InviteServerTransaction } from '../../../src/telephony/sip/transactions/invite-server.js';
import type { ServerTransaction } from '../../../src/telephony/sip/transactions/layer.js';
import { answerTo, requestOf } from './messages.js';
import { PEER, testStack } from './stack.js';

const TCP = { ...PEER, transport: 'tcp' as const };

/** A stack whose transaction user records what it is handed and answers nothing by itself. */
function serverSide() {
  const handed: ServerTransaction[] = [];
  const cancels: Array<InviteServerTransaction | undefined> = [];
  const acks: string[] = [];
  const stack = testStack({
    request: (t) => handed.push(t),
    cancel: (t, invite) => {
      cancels.push(invite);
      t.respond(responseTo(t.request, invite ? 200 : 481));
    },
    ack: (request) => acks.push(headerOf(request.headers, 'cseq') ?? ''),
  });
  const sentStatuses = () => stack.responses().map((r) => r.status);
  return { ...stack, handed, cancels, acks, sentStatuses };
}

/** A client transaction's user that logs finals and timeouts. */
function clientUser() {
  const heard: string[] = [];
  return {
    heard,
    user: {
      response: (r: SipResponse) => heard.push(String(r.status)),
      timeout: () => heard.push('timeout'),
    },
  };
}

describe('INVITE client transaction (RFC 3261 17.1.1, RFC 6026)', () => {
  it('Timer A: retransmits the INVITE over UDP at T1, 2*T1, 4*T1... until a response; not over TCP', () => {
    const s = serverSide();
    const { user } = clientUser();
    s.transactions.sendInvite(requestOf('INVITE', 'a1'), PEER, user);
    const sends = () => s.requests().length;
    expect(sends()).toBe(1);
    s.timers.advance(T1 - 1);
    expect(sends()).toBe(1);
    s.timers.advance(1);
    expect(sends()).toBe(2);
    s.timers.advance(2 * T1);
    expect(sends()).toBe(3);
    s.timers.advance(4 * T1);
    expect(sends()).toBe(4);
    s.deliver(answerTo(s.requests()[0], 100));
    s.timers.advance(20 * T1);
    expect(sends()).toBe(4);

    const tcp = serverSide();
    tcp.transactions.sendInvite(requestOf('INVITE', 'a2'), TCP, user);
    tcp.timers.advance(10 * T1);
    expect(tcp.requests()).toHaveLength(1);
  });

  it('Timer B: gives up at 64*T1 in Calling, never after a provisional answer', () => {
    const s = serverSide();
    const calling = clientUser();
    s.transactions.sendInvite(requestOf('INVITE', 'b1'), PEER, calling.user);
    s.timers.advance(64 * T1 - 1);
    expect(calling.heard).toEqual([]);
    s.timers.advance(1);
    expect(calling.heard).toEqual(['timeout']);
    expect(s.requests()).toHaveLength(7); // the INVITE and six retransmissions (Timer A)
    expect(s.transactions.size).toBe(0);

    const ringing = clientUser();
    const t = s.transactions.sendInvite(requestOf('INVITE', 'b2'), PEER, ringing.user);
    s.deliver(answerTo(t.request, 180));
    s.timers.advance(10 * 64 * T1);
    expect(ringing.heard).toEqual(['180']);
    expect(t.current).toBe('proceeding');
  });

  it('Timer B after CANCEL: a callee that never answers finally is given up 64*T1 after our CANCEL', () => {
    const s = serverSide();
    const { heard, user } = clientUser();
    const t = s.transactions.sendInvite(requestOf('INVITE', 'b3'), PEER, user);
    s.deliver(answerTo(t.request, 180));
    s.timers.advance(5000);
    t.cancelled();
    s.timers.advance(64 * T1 - 1);
    expect(heard).toEqual(['180']);
    s.timers.advance(1);
    expect(heard).toEqual(['180', 'timeout']);
  });

  it('Timer D: a refusal is acknowledged in the transaction, again for each retransmission, for 32 s over UDP', () => {
    const s = serverSide();
    const { heard, user } = clientUser();
    const t = s.transactions.sendInvite(requestOf('INVITE', 'd1'), PEER, user);
    const busy = answerTo(t.request, 486);
    s.deliver(busy);
    s.deliver(busy);
    const acks = () => s.requests().filter((r) => r.method === 'ACK');
    expect(acks()).toHaveLength(2);
    expect(headerOf(acks()[0].headers, 'via')).toBe(headerOf(t.request.headers, 'via'));
    expect(headerOf(acks()[0].headers, 'to')).toBe(headerOf(busy.headers, 'to'));
    expect(heard).toEqual(['486']);
    s.timers.advance(32_000 - 1);
    expect(t.current).toBe('completed');
    s.timers.advance(1);
    expect(t.terminated).toBe(true);
    s.deliver(busy);
    expect(acks()).toHaveLength(2);

    const tcp = serverSide();
    const overTcp = tcp.transactions.sendInvite(requestOf('INVITE', 'd2'), TCP, user);
    tcp.deliver(answerTo(overTcp.request, 486));
    expect(overTcp.terminated).toBe(true);
  });

  it('Timer M (RFC 6026): after a 2xx, each retransmitted 2xx still reaches the owner for 64*T1', () => {
    const s = serverSide();
    const { heard, user } = clientUser();
    const t = s.transactions.sendInvite(requestOf('INVITE', 'm1'), PEER, user);
    const ok = answerTo(t.request, 200);
    s.deliver(ok);
    s.timers.advance(4 * T1);
    s.deliver(ok);
    expect(heard).toEqual(['200', '200']);
    expect(t.current).toBe('accepted');
    s.timers.advance(60 * T1);
    expect(t.terminated).toBe(true);
    s.deliver(ok);
    expect(heard).toEqual(['200', '200']);
  });
});

describe('non-INVITE client transaction (RFC 3261 17.1.2)', () => {
  it('Timer E: retransmits at T1 doubling to T2, then at T2 once a provisional answer came', () => {
    const s = serverSide();
    const { user } = clientUser();
    const t = s.transactions.sendRequest(requestOf('BYE', 'e1'), PEER, user);
    const times: number[] = [];
    let seen = 1;
    for (let ms = 0; ms <= 16_000; ms += 100) {
      if (ms === 12_000) s.deliver(answerTo(t.request, 100));
      if (s.requests().length > seen) {
        seen = s.requests().length;
        times.push(s.timers.now());
      }
      s.timers.advance(100);
    }
    // 0.5, 1.5, 3.5, 7.5, 11.5 (capped at T2), then 15.5 at T2 while Proceeding.
    expect(times).toEqual([T1, 3 * T1, 7 * T1, 7 * T1 + T2, 7 * T1 + 2 * T2, 7 * T1 + 3 * T2]);
  });

  it('Timer F: gives up at 64*T1 without a final answer', () => {
    const s = serverSide();
    const { heard, user } = clientUser();
    s.transactions.sendRequest(requestOf('BYE', 'f1'), PEER, user);
    s.timers.advance(64 * T1 - 1);
    expect(heard).toEqual([]);
    s.timers.advance(1);
    expect(heard).toEqual(['timeout']);
    expect(s.transactions.size).toBe(0);
  });

  it('Timer K: the final answer is passed on once; its retransmissions are absorbed for T4 over UDP', () => {
    const s = serverSide();
    const { heard, user } = clientUser();
    const t = s.transactions.sendRequest(requestOf('BYE', 'k1'), PEER, user);
    const ok = answerTo(t.request, 200);
    s.deliver(ok);
    s.deliver(ok);
    expect(heard).toEqual(['200']);
    expect(t.current).toBe('completed');
    s.timers.advance(T4 - 1);
    expect(t.current).toBe('completed');
    s.timers.advance(1);
    expect(t.terminated).toBe(true);
    const requests = s.requests().length;
    s.timers.advance(64 * T1);
    expect(s.requests()).toHaveLength(requests);
  });
});

describe('INVITE server transaction (RFC 3261 17.2.1, RFC 6026)', () => {
  it('answers a retransmitted INVITE with the last provisional answer, handing the TU the INVITE once', () => {
    const s = serverSide();
    const invite = requestOf('INVITE', 'p1');
    s.deliver(invite);
    s.handed[0].respond(responseTo(invite, 180, { toTag: 'us' }));
    s.deliver(invite);
    s.deliver(invite);
    expect(s.handed).toHaveLength(1);
    expect(s.sentStatuses()).toEqual([180, 180, 180]);
  });

  it('Timer G: a refusal goes again at T1 doubling to T2 until its ACK', () => {
    const s = serverSide();
    const invite = requestOf('INVITE', 'g1');
    s.deliver(invite);
    s.handed[0].respond(responseTo(invite, 486, { toTag: 'us' }));
    const at = (ms: number) => {
      s.timers.advance(ms - s.timers.now());
      return s.sentStatuses().length;
    };
    expect(at(T1 - 1)).toBe(1);
    expect(at(T1)).toBe(2);
    expect(at(3 * T1)).toBe(3);
    expect(at(7 * T1)).toBe(4);
    expect(at(7 * T1 + T2)).toBe(5);
    expect(at(7 * T1 + 2 * T2)).toBe(6);
    s.deliver(requestOf('ACK', 'g1'));
    expect(at(7 * T1 + 10 * T2)).toBe(6);
  });

  it('Timer H: without the ACK of a refusal, the transaction ends at 64*T1 and says so', () => {
    const s = serverSide();
    const invite = requestOf('INVITE', 'h1');
    s.deliver(invite);
    const t = s.handed[0] as InviteServerTransaction;
    let noAck = 0;
    t.onNoAck = () => noAck++;
    t.respond(responseTo(invite, 603, { toTag: 'us' }));
    s.timers.advance(64 * T1 - 1);
    expect(noAck).toBe(0);
    s.timers.advance(1);
    expect(noAck).toBe(1);
    expect(t.terminated).toBe(true);
    expect(s.timers.size).toBe(0);
  });

  it('Timer I: after the ACK, retransmitted ACKs are absorbed for T4, then the transaction ends', () => {
    const s = serverSide();
    const invite = requestOf('INVITE', 'i1');
    s.deliver(invite);
    const t = s.handed[0] as InviteServerTransaction;
    t.respond(responseTo(invite, 486, { toTag: 'us' }));
    const ack = requestOf('ACK', 'i1');
    s.deliver(ack);
    expect(t.current).toBe('confirmed');
    s.deliver(ack);
    expect(s.acks).toEqual([]);
    s.timers.advance(T4 - 1);
    expect(t.current).toBe('confirmed');
    s.timers.advance(1);
    expect(t.terminated).toBe(true);
    // Once it has ended, a stray ACK is the TU's (as the ACK of a 2xx would be).
    s.deliver(ack);
    expect(s.acks).toEqual(['1 ACK']);
  });

  it('Timer L: a 2xx goes again at T1 doubling to T2 until acknowledged, and Accepted ends at 64*T1', () => {
    const s = serverSide();
    const invite = requestOf('INVITE', 'l1');
    s.deliver(invite);
    const t = s.handed[0] as InviteServerTransaction;
    let noAck = 0;
    t.onNoAck = () => noAck++;
    t.respond(responseTo(invite, 200, { toTag: 'us' }));
    s.timers.advance(7 * T1);
    expect(s.sentStatuses()).toEqual([200, 200, 200, 200]);
    s.deliver(invite);
    expect(s.sentStatuses()).toHaveLength(4); // a retransmitted INVITE is absorbed in Accepted
    t.acknowledged();
    s.timers.advance(20 * T1);
    expect(s.sentStatuses()).toHaveLength(4);
    expect(t.current).toBe('accepted');
    s.timers.advance(64 * T1 - 27 * T1);
    expect(t.terminated).toBe(true);
    expect(noAck).toBe(0);

    const lost = serverSide();
    lost.deliver(requestOf('INVITE', 'l2'));
    const unacked = lost.handed[0] as InviteServerTransaction;
    unacked.onNoAck = () => noAck++;
    unacked.respond(responseTo(unacked.request, 200, { toTag: 'us' }));
    lost.timers.advance(64 * T1);
    expect(noAck).toBe(1);
    expect(lost.timers.size).toBe(0);
  });
});

describe('non-INVITE server transaction (RFC 3261 17.2.2)', () => {
  it('Timer J: the final answer is replayed to retransmissions for 64*T1; after it a request is new', () => {
    const s = serverSide();
    const bye = requestOf('BYE', 'j1', { toTag: 'us' });
    s.deliver(bye);
    s.deliver(bye);
    expect(s.handed).toHaveLength(1);
    expect(s.sentStatuses()).toEqual([]);
    s.handed[0].respond(responseTo(bye, 200));
    s.deliver(bye);
    expect(s.sentStatuses()).toEqual([200, 200]);
    s.timers.advance(64 * T1 - 1);
    s.deliver(bye);
    expect(s.sentStatuses()).toEqual([200, 200, 200]);
    s.timers.advance(1);
    s.deliver(bye);
    expect(s.handed).toHaveLength(2);
  });

  it('replays the answer only to its source: the same branch from elsewhere is a new request', () => {
    const s = serverSide();
    const options = requestOf('OPTIONS', 'j3');
    s.deliver(options);
    s.handed[0].respond(responseTo(options, 200));
    s.deliver(options, { ...PEER, address: '10.0.0.9' });
    expect(s.handed).toHaveLength(2);
    expect(s.sentStatuses()).toEqual([200]);
  });

  it('replays the answer only to the same request: another CSeq method on the branch is another transaction', () => {
    const s = serverSide();
    s.deliver(requestOf('OPTIONS', 'j2'));
    s.handed[0].respond(responseTo(s.handed[0].request, 200));
    s.deliver(requestOf('INFO', 'j2'));
    expect(s.handed).toHaveLength(2);
  });
});

describe('CANCEL (RFC 3261 9.2, 17.2.3)', () => {
  it('is matched to the INVITE of its branch and sent-by, and to nothing otherwise', () => {
    const s = serverSide();
    s.deliver(requestOf('INVITE', 'c1'));
    s.deliver(requestOf('CANCEL', 'c1'));
    expect(s.cancels).toEqual([s.handed[0]]);
    s.deliver(requestOf('CANCEL', 'c2'));
    expect(s.cancels[1]).toBeUndefined();
    const elsewhere = requestOf('CANCEL', 'c1');
    elsewhere.headers[0] = ['via', 'SIP/2.0/UDP 10.0.0.9:5070;branch=z9hG4bKc1'];
    s.deliver(elsewhere, { ...PEER, address: '10.0.0.9' });
    expect(s.cancels[2]).toBeUndefined();
    expect(s.sentStatuses()).toEqual([200, 481, 481]);
  });
});
