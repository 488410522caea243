/**
 * What RTP a SIP call takes and sends, with real packets on loopback: a stranger's RTP to a
 * call's port is dropped (its keys never reach the call), an SDP naming a third party's address
 * gets it only a few packets, and a caller whose RTP stops is hung up (BYE).
 */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallLine } from '../../../src/engine/ports/call-line.js';
import type { CallRecord } from '../../../src/engine/records.js';
import { UNPROVEN_PACKETS } from '../../../src/telephony/media/latch.js';
import { writeRtp } from '../../../src/telephony/media/rtp.js';
import { type SipService, startSipService } from '../../../src/telephony/sip-service.js';

/** An offer of PCMU and telephone-event with its media at `address:port`. */
const offer = (address: string, port: number) =>
  [
    'v=0',
    `o=- 1 1 IN IP4 ${address}`,
    's=-',
    `c=IN IP4 ${address}`,
    't=0 0',
    `m=audio ${port} RTP/AVP 0 101`,
    'a=rtpmap:101 telephone-event/8000',
    '',
  ].join('\r\n');

async function udp(address: string) {
  const socket = dgram.createSocket('udp4');
  const inbox: Array<{ data: Buffer; port: number }> = [];
  socket.on('message', (data, from) => inbox.push({ data, port: from.port }));
  await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
  return { socket, inbox, port: socket.address().port };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RTP of SIP calls', () => {
  let sip: SipService;
  let signalling: Awaited<ReturnType<typeof udp>>;
  const lines: CallLine[] = [];

  beforeAll(async () => {
    sip = await startSipService({
      port: 0,
      rtpPorts: { min: 39500, max: 39699 },
      tts: { synthesize: async () => new Int16Array(0) },
      // A caller silent for a second is gone (the default is a minute).
      rtpTimeouts: { activeSeconds: 1 },
      calls: {
        hasNumber: (n) => n === '+15550100',
        acceptCall: (input) => {
          lines.push(input.line);
          return { sid: `CA${lines.length}` } as CallRecord;
        },
      },
    });
    signalling = await udp('127.0.0.1');
  });

  afterAll(async () => {
    signalling.socket.close();
    await sip.close();
  });

  /** The SIP messages received so far, as text. */
  const messages = () => signalling.inbox.map((m) => m.data.toString('latin1'));

  async function until<T>(find: () => T | undefined, ms = 5000): Promise<T> {
    for (const end = Date.now() + ms; Date.now() < end; await wait(10)) {
      const found = find();
      if (found !== undefined) return found;
    }
    throw new Error('timed out');
  }

  /** An answered call whose SDP offers `media`; what the line reported, and our RTP port. */
  async function call(callId: string, media: { address: string; port: number }) {
    const sdp = offer(media.address, media.port);
    const invite = [
      'INVITE sip:15550100@127.0.0.1 SIP/2.0',
      `Via: SIP/2.0/UDP 127.0.0.1:${signalling.port};branch=z9hG4bK${callId}`,
      'From: <sip:caller@127.0.0.1>;tag=a1',
      'To: <sip:15550100@127.0.0.1>',
      `Call-ID: ${callId}@test`,
      'CSeq: 1 INVITE',
      `Contact: <sip:caller@127.0.0.1:${signalling.port}>`,
      'Content-Type: application/sdp',
      `Content-Length: ${sdp.length}`,
      '',
      sdp,
    ].join('\r\n');
    const before = lines.length;
    signalling.socket.send(invite, sip.port, '127.0.0.1');
    const line = await until(() => lines[before]);
    const heard = { keys: [] as string[], hungUp: false };
    line.attach({
      input: (input) => heard.keys.push(input.kind === 'dtmf' ? input.keys : '?'),
      hangup: () => (heard.hungUp = true),
    });
    line.answer();
    const ok = await until(() =>
      messages().find((m) => m.startsWith('SIP/2.0 200') && m.includes(`${callId}@test`)),
    );
    const toTag = /^To: .*;tag=(\w+)/m.exec(ok)?.[1];
    signalling.socket.send(
      invite
        .split('\r\n\r\n')[0]
        .replace(/^INVITE/, 'ACK')
        .replace('CSeq: 1 INVITE', 'CSeq: 1 ACK')
        .replace(`branch=z9hG4bK${callId}`, `branch=z9hG4bK${callId}ack`)
        .replace('To: <sip:15550100@127.0.0.1>', `To: <sip:15550100@127.0.0.1>;tag=${toTag}`)
        .replace(/Content-Length: \d+/, 'Content-Length: 0')
        .concat('\r\n\r\n'),
      sip.port,
      '127.0.0.1',
    );
    return { line, heard, rtpPort: Number(/^m=audio (\d+)/m.exec(ok)?.[1]) };
  }

  /** RTP of audio (`payloadType` 0) or of the key `key` (101), as a phone sends it. */
  const rtp = (payloadType: number, sequence: number, key = 0) =>
    writeRtp(
      { payloadType, marker: false, sequence, timestamp: 1000 + sequence * 160, ssrc: 77 + key },
      payloadType === 101 ? Uint8Array.of(key, 0x80 | 10, 0, 160) : new Uint8Array(160).fill(0xff),
    );

  it("drops a stranger's RTP to a call's port: its keys never reach the call, the caller's do", async () => {
    const phone = await udp('127.0.0.1');
    const stranger = await udp('127.0.0.2');
    try {
      const { heard, rtpPort, line } = await call('latch1', { address: '127.0.0.1', port: phone.port });
      const rejected = (await sip.mediaStats()).packetsRejected;
      phone.socket.send(rtp(0, 1), rtpPort, '127.0.0.1');
      await until(() => (phone.inbox.length > 0 ? true : undefined));
      for (let i = 0; i < 5; i++) stranger.socket.send(rtp(101, 10 + i, 7), rtpPort, '127.0.0.1');
      await wait(100);
      phone.socket.send(rtp(101, 2, 5), rtpPort, '127.0.0.1');
      await until(() => (heard.keys.length > 0 ? true : undefined));
      expect(heard.keys).toEqual(['5']);
      expect((await sip.mediaStats()).packetsRejected - rejected).toBeGreaterThanOrEqual(5);
      // The stranger heard nothing of the call either.
      expect(stranger.inbox).toEqual([]);
      line.end('completed');
    } finally {
      phone.socket.close();
      stranger.socket.close();
    }
  });

  it('sends an SDP address that never sends RTP no more than a few packets (no reflection)', async () => {
    const victim = await udp('127.0.0.3');
    try {
      const { line } = await call('reflect1', { address: '127.0.0.3', port: victim.port });
      line.play({ kind: 'silence', seconds: 3 }, () => {});
      await wait(600);
      expect(victim.inbox.length).toBeGreaterThan(0);
      expect(victim.inbox.length).toBeLessThanOrEqual(UNPROVEN_PACKETS);
      line.end('completed');
    } finally {
      victim.socket.close();
    }
  });

  it('hangs up (BYE) a call whose caller sends no RTP for the timeout, and tells the engine', async () => {
    const phone = await udp('127.0.0.1');
    try {
      const { heard, rtpPort } = await call('quiet1', { address: '127.0.0.1', port: phone.port });
      phone.socket.send(rtp(0, 1), rtpPort, '127.0.0.1');
      const bye = await until(
        () => messages().find((m) => m.startsWith('BYE ') && m.includes('quiet1@test')),
        4000,
      );
      expect(bye).toMatch(/^CSeq: \d+ BYE/m);
      expect(heard.hungUp).toBe(true);
    } finally {
      phone.socket.close();
    }
  });
});
