import { type Dialog, type LocalAddress, T1, token } from './dialog.js';
import { cseqOf, headerOf, type SipRequest, type SipResponse } from './message.js';
import type { SipPeer } from './transport.js';

/** What a re-INVITE needs of the endpoint: sending, and the responses of its branch. */
export interface ReinviteWire {
  readonly local: LocalAddress;
  send(message: SipRequest | SipResponse, peer: SipPeer): void;
  /** Hands the INVITE responses of `branch` to `onResponse` until `unlisten`. */
  listen(branch: string, onResponse: (response: SipResponse) => void): void;
  unlisten(branch: string): void;
}

/**
 * Sends a new offer in an answered dialog (RFC 3261 section 14.1; hold and resume, RFC 6337):
 * a re-INVITE retransmitted over UDP at T1 doubling until a response (408 after 64*T1), every
 * 2xx acknowledged in the dialog, a refusal within the transaction. `done` gets the final
 * status once.
 */
export function sendReinvite(
  dialog: Dialog,
  wire: ReinviteWire,
  contact: string,
  sdp: string,
  done: (status: number) => void,
): void {
  const branch = token();
  const { request, peer } = dialog.request('INVITE', wire.local, branch);
  request.headers.push(['contact', contact], ['content-type', 'application/sdp']);
  request.body = sdp;
  const via = headerOf(request.headers, 'via') ?? '';
  const fullBranch = /;\s*branch=([^;\s,]+)/i.exec(via)?.[1] ?? branch;
  const seq = cseqOf(request).seq;
  let retransmit: NodeJS.Timeout | undefined;
  let finished = false;
  const finish = (status: number) => {
    clearTimeout(retransmit);
    clearTimeout(giveUp);
    if (finished) return;
    finished = true;
    // Late 2xx retransmissions still get their ACK for a while.
    setTimeout(() => wire.unlisten(fullBranch), 64 * T1).unref();
    done(status);
  };
  wire.listen(fullBranch, (response) => {
    if (response.status < 200) {
      clearTimeout(retransmit);
      return;
    }
    if (response.status < 300) {
      const ack = dialog.request('ACK', wire.local, token(), seq);
      wire.send(ack.request, ack.peer);
    } else {
      wire.send(
        {
          kind: 'request',
          method: 'ACK',
          uri: request.uri,
          headers: [
            ['via', via],
            ['max-forwards', '70'],
            ['from', headerOf(request.headers, 'from') ?? ''],
            ['to', headerOf(response.headers, 'to') ?? ''],
            ['call-id', dialog.callId],
            ['cseq', `${seq} ACK`],
          ],
          body: '',
        },
        peer,
      );
    }
    finish(response.status);
  });
  wire.send(request, peer);
  if (peer.transport === 'udp') {
    let interval = T1;
    const again = () => {
      wire.send(request, peer);
      interval *= 2;
      retransmit = setTimeout(again, interval);
    };
    retransmit = setTimeout(again, interval);
  }
  const giveUp = setTimeout(() => finish(408), 64 * T1);
}
