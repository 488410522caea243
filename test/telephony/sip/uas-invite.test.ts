/** An inbound INVITE over the transaction and dialog layers (no sockets, ManualSipTimers). */
import { describe, expect, it } from 'vitest';
import { headerOf } from '../../../src/telephony/sip/message.js';
import { negotiate } from '../../../src/telephony/sip/sdp.js';
import { T1, T2 } from '../../../src/telephony/sip/timers.js';
import type { InviteServerTransaction } from '../../../src/telephony/sip/transactions/invite-server.js';
import { UasInvite } from '../../../src/telephony/sip/uas-invite.js';
import { PCMU_OFFER } from '../../support/pcmu-offer.js';
import { requestOf } from './messages.js';
import { testStack } from './stack.js';

function inbound() {
  const events: string[] = [];
  const calls: UasInvite[] = [];
  const byInvite = new Map<InviteServerTransaction, UasInvite>();
  const stack = testStack({
    request: (t) => {
      if (t.request.method === 'INVITE' && headerOf(t.request.headers, 'to')?.includes('tag=') !== true) {
        const negotiated = negotiate(t.request.body);
        if ('status' in negotiated) throw new Error('bad offer');
        const call = new UasInvite(t as InviteServerTransaction, negotiated, stack.dialogs);
        call.events = {
          canceled: () => events.push('canceled'),
          ended: (by) => events.push(`ended ${by}`),
          reoffer: () => 'v=0\r\n',
          offer: () => 'v=0\r\n',
          digit: (key) => events.push(`digit ${key}`),
          confirmed: () => events.push('confirmed'),
        };
        byInvite.set(t as InviteServerTransaction, call);
        calls.push(call);
        call.trying();
        return;
      }
      const dialog = stack.dialogs.find(t.request);
      if (dialog) dialog.receive(t);
    },
    cancel: (t, invite) => {
      const call = invite && byInvite.get(invite);
      if (call) call.cancel(t);
    },
  });
  const invite = requestOf('INVITE', 'in1', { body: PCMU_OFFER });
  invite.headers.push(['content-type', 'application/sdp']);
  stack.deliver(invite);
  const statuses = () => stack.responses().map((r) => `${r.status} ${headerOf(r.headers, 'cseq')}`);
  /** A request of the caller in the call's dialog. */
  const inDialog = (method: string, seq: number, branch = `${method}${seq}`) => {
    const call = calls[0];
    const request = requestOf(method, branch, { seq, toTag: call.localTag });
    request.headers = request.headers.map(([n, v]) => [n, n === 'call-id' ? call.callId : v]);
    stack.deliver(request);
  };
  return { stack, call: calls[0], events, statuses, inDialog, invite };
}

describe('an inbound INVITE (UAS) over the transaction layer', () => {
  it('sends its 2xx again at T1 doubling to T2 until the ACK, then takes offers of ours', () => {
    const { stack, call, events, statuses, inDialog } = inbound();
    call.answer('v=0\r\n');
    stack.timers.advance(7 * T1 + T2);
    expect(statuses()).toEqual(['100 1 INVITE', ...Array(5).fill('200 1 INVITE')]);
    inDialog('ACK', 1, 'ack1');
    stack.timers.advance(10 * T2);
    expect(statuses()).toHaveLength(6);
    expect(events).toEqual(['confirmed']);
    expect(call.sendOffer('v=0\r\n', () => {})).toBe(true);
    expect(stack.requests().at(-1)?.method).toBe('INVITE');
  });

  it('hangs up with a BYE when the 2xx is never acknowledged (RFC 3261 13.3.1.4)', () => {
    const { stack, call, events } = inbound();
    call.answer('v=0\r\n');
    stack.timers.advance(64 * T1);
    expect(events).toEqual(['ended no-ack']);
    expect(stack.requests().map((r) => r.method)).toEqual(['BYE']);
  });

  it('answers a CANCEL 200, the INVITE 487, and reports it once', () => {
    const { stack, call, events, statuses, invite } = inbound();
    call.ringing();
    const cancel = requestOf('CANCEL', 'in1');
    stack.deliver(cancel);
    stack.deliver(cancel);
    expect(statuses()).toEqual([
      '100 1 INVITE',
      '180 1 INVITE',
      '200 1 CANCEL',
      '487 1 INVITE',
      '200 1 CANCEL',
    ]);
    expect(events).toEqual(['canceled']);
    const ack = requestOf('ACK', 'in1');
    stack.deliver(ack);
    stack.deliver(invite);
    expect(statuses()).toHaveLength(5);
    stack.timers.runAll();
    expect(stack.transactions.size).toBe(0);
  });

  it('answers in its dialog: 491 to a re-INVITE while one of ours is under way, 481 to NOTIFY, INFO digits', () => {
    const { stack, call, events, statuses, inDialog } = inbound();
    call.answer('v=0\r\n');
    inDialog('ACK', 1, 'ack1');
    call.sendOffer('v=0\r\n', (status) => events.push(`offer ${status}`));
    inDialog('INVITE', 2);
    inDialog('NOTIFY', 3);
    const info = requestOf('INFO', 'info4', { seq: 4, toTag: call.localTag });
    info.headers = info.headers.map(([n, v]) => [n, n === 'call-id' ? call.callId : v]);
    info.headers.push(['content-type', 'application/dtmf-relay']);
    info.body = 'Signal=5\r\nDuration=160\r\n';
    stack.deliver(info);
    inDialog('BYE', 1);
    expect(statuses().slice(-4)).toEqual(['491 2 INVITE', '481 3 NOTIFY', '200 4 INFO', '500 1 BYE']);
    inDialog('BYE', 5);
    expect(statuses().at(-1)).toBe('200 5 BYE');
    expect(events).toEqual(['confirmed', 'digit 5', 'ended bye']);
  });

  it("notes the caller's source on its Via (rport, received) for every answer (RFC 3581)", () => {
    const { stack } = inbound();
    const via = headerOf(stack.responses()[0].headers, 'via') ?? '';
    expect(via).toBe('SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKin1;rport=5070;received=127.0.0.1');
  });

  it('sends its requests to a caller behind NAT where it sends from, not to its private Contact', () => {
    const phone = { transport: 'udp' as const, address: '203.0.113.7', port: 41234 };
    const calls: UasInvite[] = [];
    const nat = testStack({
      request: (t) => {
        const negotiated = negotiate(t.request.body);
        if (!('status' in negotiated))
          calls.push(new UasInvite(t as InviteServerTransaction, negotiated, nat.dialogs));
      },
      ack: (request) => nat.dialogs.find(request)?.ack(request),
    });
    const invite = requestOf('INVITE', 'nat1', { body: PCMU_OFFER });
    invite.headers = invite.headers.map(([n, v]) => [
      n,
      n === 'contact' ? '<sip:alice@192.168.1.20:5062>' : v,
    ]);
    invite.headers.push(['content-type', 'application/sdp']);
    nat.deliver(invite, phone);
    const call = calls[0];
    call.answer('v=0\r\n');
    const ack = requestOf('ACK', 'nat1ack', { toTag: call.localTag });
    ack.headers = ack.headers.map(([n, v]) => [n, n === 'call-id' ? call.callId : v]);
    nat.deliver(ack, phone);
    call.hangup();
    const bye = nat.wire.find((w) => w.message.kind === 'request' && w.message.method === 'BYE');
    expect(bye?.peer).toEqual(phone);
    expect(bye?.message.kind === 'request' && bye.message.uri).toBe('sip:alice@192.168.1.20:5062');
  });
});
