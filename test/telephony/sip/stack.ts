/**
 * A SIP stack without sockets for unit tests: the transaction and dialog layers over a transport
 * that logs what it sends, on `ManualSipTimers`, so a 32 s timer runs in microseconds.
 */
import { Dialogs } from '../../../src/telephony/sip/dialogs.js';
import type { SipMessage, SipRequest, SipResponse } from '../../../src/telephony/sip/message.js';
import { ManualSipTimers } from '../../../src/telephony/sip/timers.js';
import { TransactionLayer, type TransactionUser } from '../../../src/telephony/sip/transactions/layer.js';
import type { SipPeer } from '../../../src/telephony/sip/transport.js';

export const PEER: SipPeer = { transport: 'udp', address: '127.0.0.1', port: 5070 };

export function testStack(user: Partial<TransactionUser> = {}) {
  const timers = new ManualSipTimers();
  const wire: Array<{ message: SipMessage; peer: SipPeer }> = [];
  const dialogs: { current?: Dialogs } = {};
  const transactions = new TransactionLayer(
    { send: (message, peer) => wire.push({ message, peer }) },
    timers,
    {
      request: (t) => {
        if (user.request) return user.request(t);
        const dialog = dialogs.current?.find(t.request);
        if (dialog) dialog.receive(t);
      },
      cancel: (t, invite) => user.cancel?.(t, invite),
      ack: (request, peer) => {
        if (user.ack) return user.ack(request, peer);
        dialogs.current?.find(request)?.ack(request);
      },
    },
  );
  dialogs.current = new Dialogs({ host: '127.0.0.1', port: 5060 }, transactions);
  const requests = () => wire.map((w) => w.message).filter((m): m is SipRequest => m.kind === 'request');
  const responses = () => wire.map((w) => w.message).filter((m): m is SipResponse => m.kind === 'response');
  return {
    timers,
    wire,
    transactions,
    dialogs: dialogs.current,
    requests,
    responses,
    /** Hands a message to the stack as if it came from `peer`. */
    deliver: (message: SipMessage, peer: SipPeer = PEER) => transactions.receive(message, peer),
  };
}
