/** The SIP endpoint against hand-written datagrams: the cases SIPp does not send. */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallLine } from '../../../src/engine/ports/call-line.js';
import type { CallRecord } from '../../../src/engine/records.js';
import { writeRtp } from '../../../src/telephony/media/rtp.js';
import { type SipService, startSipService } from '../../../src/telephony/sip-service.js';
import { PCMU_OFFER } from '../../support/pcmu-offer.js';

const SDP = PCMU_OFFER;

function request(method: string, branch: string, extra: string[] = [], body = ''): string {
  return [
    `${method} sip:15550100@127.0.0.1 SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bK${branch}`,
    'From: <sip:caller@127.0.0.1>;tag=a1',
    'To: <sip:15550100@127.0.0.1>',
    `Call-ID: ${branch}@test`,
    `CSeq: 1 ${method}`,
    'Max-Forwards: 70',
    ...extra,
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

describe('SIP endpoint', () => {
  let sip: SipService;
  let client: dgram.Socket;
  const accepted: Array<{ line: CallLine; from: string; to: string; headers?: Record<string, string> }> = [];
  const inbox: string[] = [];
  let waiting: ((m: string) => void) | undefined;
  let refuseNew = false;

  beforeAll(async () => {
    sip = await startSipService({
      port: 0,
      rtpPorts: { min: 38500, max: 38599 },
      tts: { synthesize: async () => new Int16Array(0) },
      admit: () => (refuseNew ? 503 : undefined),
      calls: {
        hasNumber: (n) => n === '+15550100',
        acceptCall: (input) => {
          accepted.push(input);
          return { sid: 'CA1' } as CallRecord;
        },
      },
    });
    client = dgram.createSocket('udp4');
    client.on('message', (m) => {
      const text = m.toString('latin1');
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w(text);
      } else inbox.push(text);
    });
    await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', () => resolve()));
  });

  afterAll(async () => {
    client.close();
    await sip.close();
  });

  /** Sends a datagram and returns the next answer whose status line matches `status`. */
  async function exchange(text: string, status: RegExp): Promise<string> {
    client.send(text, sip.port, '127.0.0.1');
    return receive(status);
  }

  async function receive(status: RegExp): Promise<string> {
    for (;;) {
      const next = inbox.shift() ?? (await new Promise<string>((resolve) => (waiting = resolve)));
      if (status.test(next.split('\r\n')[0])) return next;
    }
  }

  it('answers OPTIONS 200, an unknown dialog 481, an unreadable request 400', async () => {
    expect(await exchange(request('OPTIONS', 'o1'), /^SIP\/2\.0 200/)).toMatch(/Allow: INVITE/);
    expect(await exchange(request('BYE', 'b1', [], ''), /^SIP\/2\.0 \d/)).toMatch(/^SIP\/2\.0 481/);
    const broken = request('OPTIONS', 'x1').replace('CSeq: 1 OPTIONS', 'CSeq: one');
    expect(await exchange(broken, /^SIP\/2\.0 \d/)).toMatch(/^SIP\/2\.0 400/);
  });

  it('starts a call for a routed number with or without +, its X- headers as they were spelled', async () => {
    const ringing = await exchange(
      request('INVITE', 'i1', ['X-Customer-Id: 42', 'Content-Type: application/sdp'], SDP),
      /^SIP\/2\.0 180/,
    );
    expect(ringing).toMatch(/To: <sip:15550100@127\.0\.0\.1>;tag=\w+/);
    expect(accepted.at(-1)).toMatchObject({
      from: 'caller',
      to: '+15550100',
      headers: { 'X-Customer-Id': '42' },
    });
    // The INVITE again (a retransmission) gets the last answer again, not a second call.
    await exchange(
      request('INVITE', 'i1', ['X-Customer-Id: 42', 'Content-Type: application/sdp'], SDP),
      /^SIP\/2\.0 180/,
    );
    expect(accepted).toHaveLength(1);
    // Reject reason="busy": 486, acknowledged in the INVITE's transaction.
    accepted.at(-1)?.line.end('busy');
    expect(await receive(/^SIP\/2\.0 486/)).toMatch(/CSeq: 1 INVITE/);
    client.send(request('ACK', 'i1'), sip.port, '127.0.0.1');
  });

  it('refuses an X- header value holding a carriage return (400), and 420 for an unknown Require', async () => {
    const refused = await exchange(
      request('INVITE', 'i2', ['X-Evil: a\rInjected: yes', 'Content-Type: application/sdp'], SDP),
      /^SIP\/2\.0 [4-6]\d\d/,
    );
    expect(refused).toMatch(/^SIP\/2\.0 400/);
    const bad = await exchange(
      request('INVITE', 'i3', ['Require: 100rel', 'Content-Type: application/sdp'], SDP),
      /^SIP\/2\.0 [4-6]\d\d/,
    );
    expect(bad).toMatch(/^SIP\/2\.0 420[\s\S]*Unsupported: 100rel/);
    expect(accepted).toHaveLength(1);
  });

  it('answers a re-INVITE without SDP with an offer of the current session, and a retransmitted BYE again', async () => {
    const invite = request('INVITE', 'i5', ['Content-Type: application/sdp'], SDP).replace(
      'Call-ID: i5@test',
      'Call-ID: c5@test',
    );
    client.send(invite, sip.port, '127.0.0.1');
    await receive(/^SIP\/2\.0 180/);
    accepted.at(-1)?.line.answer();
    const ok = await receive(/^SIP\/2\.0 200/);
    const toTag = /^To: .*;tag=(\w+)/m.exec(ok)?.[1];
    const inDialog = (method: string, branch: string, cseq: number) =>
      request(method, branch)
        .replace('Call-ID: ' + branch + '@test', 'Call-ID: c5@test')
        .replace('To: <sip:15550100@127.0.0.1>', `To: <sip:15550100@127.0.0.1>;tag=${toTag}`)
        .replace(`CSeq: 1 ${method}`, `CSeq: ${cseq} ${method}`);
    client.send(inDialog('ACK', 'a5', 1), sip.port, '127.0.0.1');
    const refresh = await exchange(inDialog('INVITE', 'r5', 2), /^SIP\/2\.0 200/);
    expect(refresh).toMatch(/Content-Type: application\/sdp[\s\S]*m=audio \d+ RTP\/AVP 0/);
    expect(refresh).toMatch(/o=rcml \d+ 2 IN IP4/);
    client.send(inDialog('ACK', 'a6', 2), sip.port, '127.0.0.1');
    const bye = inDialog('BYE', 'b5', 3);
    expect(await exchange(bye, /^SIP\/2\.0 \d/)).toMatch(/^SIP\/2\.0 200/);
    expect(await exchange(bye, /^SIP\/2\.0 \d/)).toMatch(/^SIP\/2\.0 200/);
  });

  it('refuses new calls with 503 while the server does not admit them (draining, live-call limit)', async () => {
    refuseNew = true;
    const refused = await exchange(
      request('INVITE', 'i4', ['Content-Type: application/sdp'], SDP),
      /^SIP\/2\.0 [4-6]\d\d/,
    );
    refuseNew = false;
    expect(refused).toMatch(/^SIP\/2\.0 503/);
    expect(accepted).toHaveLength(2);
  });

  /** Calls the service with a Contact of ours, answers, and ACKs: the line and in-dialog requests. */
  async function answeredCall(callId: string) {
    const contact = `Contact: <sip:caller@127.0.0.1:${client.address().port}>`;
    const invite = request('INVITE', `${callId}i`, [contact, 'Content-Type: application/sdp'], SDP).replace(
      `Call-ID: ${callId}i@test`,
      `Call-ID: ${callId}@test`,
    );
    client.send(invite, sip.port, '127.0.0.1');
    await receive(/^SIP\/2\.0 180/);
    const line = accepted.at(-1)?.line as CallLine;
    line.answer();
    const ok = await receive(/^SIP\/2\.0 200/);
    const toTag = /^To: .*;tag=(\w+)/m.exec(ok)?.[1];
    const inDialog = (method: string, cseq: number, body = '') =>
      request(method, `${callId}${method}${cseq}`, body ? ['Content-Type: application/sdp'] : [], body)
        .replace(`Call-ID: ${callId}${method}${cseq}@test`, `Call-ID: ${callId}@test`)
        .replace('To: <sip:15550100@127.0.0.1>', `To: <sip:15550100@127.0.0.1>;tag=${toTag}`)
        .replace(`CSeq: 1 ${method}`, `CSeq: ${cseq} ${method}`);
    client.send(inDialog('ACK', 1), sip.port, '127.0.0.1');
    // The caller's first RTP packet, from its host: our media go on past their first few.
    const media = Number(/^m=audio (\d+)/m.exec(ok)?.[1]);
    const rtp = writeRtp(
      { payloadType: 0, marker: true, sequence: 1, timestamp: 0, ssrc: 9 },
      new Uint8Array(160).fill(0xff),
    );
    client.send(rtp, media, '127.0.0.1');
    return { line, inDialog };
  }

  it("keeps sending an answered call's audio while the engine's thread is blocked: the media run in a worker", async () => {
    const { line } = await answeredCall('c6');
    line.play({ kind: 'silence', seconds: 5 }, () => {});
    const before = await sip.mediaStats();
    // One second of the main thread doing nothing else (an engine stall).
    const until = performance.now() + 1000;
    while (performance.now() < until) {}
    const after = await sip.mediaStats();
    // About 50 ticks of 20 ms went by meanwhile, each sending the call's frame; a loop on this
    // thread would have made up at most five after the stall.
    expect(after.ticks - before.ticks).toBeGreaterThanOrEqual(25);
    expect(after.packetsSent - before.packetsSent).toBeGreaterThanOrEqual(25);
    line.end('completed');
    expect(await receive(/^BYE /)).toMatch(/Call-ID: c6@test/);
  });

  it("follows the caller's direction: nothing is sent while it offers inactive or c=0.0.0.0, audio again at sendrecv", async () => {
    const { line, inDialog } = await answeredCall('c7');
    line.play({ kind: 'silence', seconds: 5 }, () => {});
    /** Packets sent in 300 ms after the caller's re-offer of `sdp` was answered. */
    const sentAfter = async (cseq: number, sdp: string): Promise<{ answer: string; sent: number }> => {
      const answer = await exchange(inDialog('INVITE', cseq, sdp), /^SIP\/2\.0 200/);
      client.send(inDialog('ACK', cseq), sip.port, '127.0.0.1');
      const before = await sip.mediaStats();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { answer, sent: (await sip.mediaStats()).packetsSent - before.packetsSent };
    };
    const inactive = await sentAfter(2, SDP.replace('RTP/AVP 0', 'RTP/AVP 0\r\na=inactive'));
    expect(inactive.answer).toMatch(/a=inactive/);
    expect(inactive.sent).toBe(0);
    const oldHold = await sentAfter(3, SDP.replace('c=IN IP4 127.0.0.1', 'c=IN IP4 0.0.0.0'));
    expect(oldHold.sent).toBe(0);
    const resumed = await sentAfter(4, SDP);
    expect(resumed.answer).toMatch(/a=sendrecv/);
    expect(resumed.sent).toBeGreaterThanOrEqual(5);
    line.end('completed');
    expect(await receive(/^BYE /)).toMatch(/Call-ID: c7@test/);
  });

  it('takes a re-offer listing the call codec after another (8 0 101: PCMU kept), and switches to PCMA when PCMU is gone', async () => {
    const { line, inDialog } = await answeredCall('c9');
    const reoffer = (cseq: number, payloads: string) =>
      exchange(
        inDialog(
          'INVITE',
          cseq,
          SDP.replace('RTP/AVP 0', `RTP/AVP ${payloads}`).concat('a=rtpmap:101 telephone-event/8000\r\n'),
        ),
        /^SIP\/2\.0 (200|488)/,
      );
    const kept = await reoffer(2, '8 0 101');
    expect(kept).toMatch(/^SIP\/2\.0 200/);
    expect(kept).toMatch(/^m=audio \d+ RTP\/AVP 0 101/m);
    client.send(inDialog('ACK', 2), sip.port, '127.0.0.1');
    const switched = await reoffer(3, '8 101');
    expect(switched).toMatch(/^SIP\/2\.0 200/);
    expect(switched).toMatch(/^m=audio \d+ RTP\/AVP 8 101/m);
    client.send(inDialog('ACK', 3), sip.port, '127.0.0.1');
    line.end('completed');
    expect(await receive(/^BYE /)).toMatch(/Call-ID: c9@test/);
  });
});
