/**
 * SIP and RTP over IPv6 on loopback (`--sip [::1]:5060`): the answer's SDP says `c=IN IP6`, and
 * audio flows both ways; an IPv4-only node offered an IPv6 media address says it cannot send.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallLine } from '../../../src/engine/ports/call-line.js';
import type { CallRecord } from '../../../src/engine/records.js';
import { readRtp, writeRtp } from '../../../src/telephony/media/rtp.js';
import { type SipService, startSipService } from '../../../src/telephony/sip-service.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether this machine has IPv6 loopback (a socket binds ::1). */
async function hasIpv6(): Promise<boolean> {
  const socket = dgram.createSocket('udp6');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '::1', () => resolve());
    });
    return true;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}

const ipv6 = await hasIpv6();
if (!ipv6) console.log('SIP over IPv6: skipped, this machine has no IPv6 loopback (::1)');

async function udp(type: 'udp4' | 'udp6', address: string) {
  const socket = dgram.createSocket(type);
  const inbox: Buffer[] = [];
  socket.on('message', (data) => inbox.push(data));
  await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
  return { socket, inbox, port: socket.address().port };
}

function invite(host: string, port: number, media: string, mediaPort: number, callId: string): string {
  const family = media.includes(':') ? 'IP6' : 'IP4';
  const sdp = [
    'v=0',
    `o=- 1 1 IN ${family} ${media}`,
    's=-',
    `c=IN ${family} ${media}`,
    't=0 0',
    `m=audio ${mediaPort} RTP/AVP 0`,
    '',
  ].join('\r\n');
  const at = host.includes(':') ? `[${host}]` : host;
  return [
    `INVITE sip:15550100@${at} SIP/2.0`,
    `Via: SIP/2.0/UDP ${at}:${port};branch=z9hG4bK${callId}`,
    `From: <sip:caller@${at}>;tag=a1`,
    `To: <sip:15550100@${at}>`,
    `Call-ID: ${callId}@test`,
    'CSeq: 1 INVITE',
    `Contact: <sip:caller@${at}:${port}>`,
    'Content-Type: application/sdp',
    `Content-Length: ${sdp.length}`,
    '',
    sdp,
  ].join('\r\n');
}

async function until<T>(find: () => T | undefined, ms = 5000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await wait(10)) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error('timed out');
}

describe('SIP over IPv6', () => {
  let sip: SipService | undefined;
  const closers: Array<() => void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) close();
    await sip?.close();
    sip = undefined;
  });

  const serve = async (host: string, warnings: string[] = []) => {
    const lines: CallLine[] = [];
    sip = await startSipService({
      host,
      port: 0,
      rtpPorts: { min: 39700, max: 39799 },
      tts: { synthesize: async () => new Int16Array(0) },
      onWarning: (message) => warnings.push(message),
      calls: {
        hasNumber: (n) => n === '+15550100',
        acceptCall: (input) => {
          lines.push(input.line);
          return { sid: 'CA6' } as CallRecord;
        },
      },
    });
    return { sip, lines };
  };

  it.skipIf(!ipv6)('answers an IPv6 caller with c=IN IP6 and sends it audio over IPv6', async () => {
    const { sip: service, lines } = await serve('::1');
    const phone = await udp('udp6', '::1');
    const media = await udp('udp6', '::1');
    closers.push(
      () => phone.socket.close(),
      () => media.socket.close(),
    );
    phone.socket.send(invite('::1', phone.port, '::1', media.port, 'v6a'), service.port, '::1');
    const line = await until(() => lines[0]);
    line.attach({ input: () => {}, hangup: () => {} });
    line.answer();
    const ok = await until(() =>
      phone.inbox.map((m) => m.toString('latin1')).find((m) => m.startsWith('SIP/2.0 200')),
    );
    expect(ok).toMatch(/^c=IN IP6 ::1/m);
    const rtpPort = Number(/^m=audio (\d+)/m.exec(ok)?.[1]);
    media.socket.send(
      writeRtp(
        { payloadType: 0, marker: true, sequence: 1, timestamp: 0, ssrc: 6 },
        new Uint8Array(160).fill(0xff),
      ),
      rtpPort,
      '::1',
    );
    line.play({ kind: 'silence', seconds: 1 }, () => {});
    await until(() => (media.inbox.length >= 20 ? true : undefined));
    expect(readRtp(media.inbox[0])?.payloadType).toBe(0);
    line.end('completed');
  });

  it('warns when a node on IPv4 is asked to send its audio to an IPv6 address', async () => {
    const warnings: string[] = [];
    const { sip: service, lines } = await serve('127.0.0.1', warnings);
    const phone = await udp('udp4', '127.0.0.1');
    closers.push(() => phone.socket.close());
    phone.socket.send(invite('127.0.0.1', phone.port, '2001:db8::5', 4000, 'v6b'), service.port, '127.0.0.1');
    const line = await until(() => lines[0]);
    line.attach({ input: () => {}, hangup: () => {} });
    line.answer();
    line.play({ kind: 'silence', seconds: 1 }, () => {});
    await until(() => warnings.find((w) => w.startsWith('SIP call media cannot be sent')));
    line.end('completed');
  });
});
